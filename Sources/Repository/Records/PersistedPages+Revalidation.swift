import ContentLoading
import Foundation

/// Pages asked of the source: every page beyond the initial one that is not stored, and a
/// stored one older than the list's ``PersistedPages/maxAge``, asked again with the validators
/// stored with it.
extension PersistedPages {
    /// The page at `cursor` from the source, asked with `validators`, and stored in its place;
    /// `nil` when the source answered "not modified" (nothing is written).
    func fetched(_ cursor: Cursor, _ direction: PagingDirection, validators: Validators) async throws
        -> ServedPage<Element, Cursor>?
    {
        let started = await disk.startVersion(since: disk.latestVersion)
        let fetched: Validators
        let page: Page<Element, Cursor>
        switch try await fetch(cursor, validators) {
        case .notModified where validators.isEmpty: throw UnexpectedNotModified(key: key)
        case .notModified:
            store.requestSucceeded()
            return nil
        case .modified(let modified, let validators): (page, fetched) = (modified, validators)
        }
        let request = try Self.encoded(cursor)
        let written = try await write(
            page, at: direction == .next ? .after(cursor: request) : .before(cursor: request), validators: fetched,
            keepingWritesAfter: started)
        store.requestSucceeded()
        return written
    }

    /// Whether the stored page `read` found was fetched, or last confirmed by the source in
    /// this process (see ``PageConfirmations``), longer than ``maxAge`` ago on the store's clock
    /// (or after now, the clock gone back since: its age is unknown).
    func isOld(_ read: StoredRead) -> Bool {
        guard let maxAge, let fetchedAt = read.fetchedAt else { return false }
        let confirmedAt = read.confirmable.flatMap { store.pageConfirmations.confirmedAt($0.page, version: $0.version) }
        let checkedAt = max(fetchedAt, confirmedAt ?? fetchedAt)
        let now = store.now()
        return checkedAt > now || Duration.age(of: checkedAt, at: now) >= maxAge
    }

    /// `stored`, the page at `cursor` that `read` found, older than ``maxAge``: asked of the
    /// source with the validators stored with it. "Not modified" serves it as stored (nothing is
    /// written; the store remembers the confirmation); a page the source gives is stored in
    /// its place. When the source cannot be asked (offline), the stored page is served, with
    /// the error beside it.
    func revalidated(
        _ stored: ServedPage<Element, Cursor>, at cursor: Cursor, _ direction: PagingDirection, as read: StoredRead
    ) async throws -> ServedPage<Element, Cursor> {
        do {
            if let fetched = try await fetched(cursor, direction, validators: read.validators) { return fetched }
            if let confirmable = read.confirmable {
                store.pageConfirmations.confirm(confirmable.page, version: confirmable.version, at: store.now())
            }
            return stored
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            return ServedPage(stored.page, problem: stored.problem ?? error)
        }
    }
}
