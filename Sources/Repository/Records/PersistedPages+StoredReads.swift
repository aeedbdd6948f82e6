import ContentLoading
import Foundation

/// Reading a list's stored pages back: the page a cursor loaded, as stored, or what keeps it
/// from being served, so the source is asked for it instead.
extension PersistedPages {
    /// The page `cursor` (`nil`: the initial page) loaded, as stored, and what of it could not
    /// be read: its elements whose rows are missing or do not decode are left out and those
    /// rows removed, so the next read serves the page without an error; an id it holds twice
    /// is served once. `nil` when the page is not stored.
    ///
    /// - Throws: A ``CacheError`` naming the list when the page's row does not read: it is
    ///   removed (see ``read(_:)``), so the source is asked for the page next.
    func stored(_ cursor: Cursor?) async throws -> ServedPage<Element, Cursor>? {
        let read = try await read(cursor)
        if let unreadable = read.unreadable { throw unreadable }
        return read.served
    }

    /// What reading a stored page found (see ``read(_:)``).
    struct StoredRead {
        /// The page as stored, with what of it could not be served; `nil` when it is not stored
        /// or its row does not read.
        var served: ServedPage<Element, Cursor>?
        /// The error naming the page's row when it does not read (it was removed).
        var unreadable: CacheError?
        /// Whether the page was served without some of its elements before (their rows went).
        var isIncomplete = false
        /// When the page was fetched, and the validators it came with (when it is stored).
        var fetchedAt: Date?
        var validators: Validators = .none
        /// The page's name among the store's confirmations and its row's version (when it is
        /// stored and its version reads): what a "not modified" for it confirms.
        var confirmable: (page: String, version: Int)? = nil
    }

    /// The page `cursor` loaded, as stored (see ``stored(_:)``), or, when its row does not
    /// read, the error naming it: that row goes, with the stored pages only its cursors reached,
    /// so the page is not stored any more. A page served without some of its elements is marked
    /// so (and forgets its validators): its next load, or revalidation, brings it whole.
    ///
    /// - Throws: A ``CacheError`` naming the list when the file cannot be read (nothing goes).
    func read(_ cursor: Cursor?) async throws -> StoredRead {
        let request = try cursor.map(Self.encoded)
        let stored: DiskCache.StoredPage?
        do {
            stored = try await disk.storedPage(of: listKey, request: request, type: store.type)
        } catch let corrupt as DiskCache.CorruptEntry {
            return StoredRead(unreadable: await discarding(request, foundAt: corrupt.version, failure("read", corrupt)))
        } catch {
            throw failure("read", error)
        }
        guard let stored else { return StoredRead() }
        let (page, problem): (Page<Element, Cursor>, ElementRowsProblem?)
        do {
            (page, problem) = try decoded(stored)
        } catch {
            return StoredRead(
                unreadable: await discarding(request, foundAt: stored.version, failure("decode", error)))
        }
        guard let problem else {
            return StoredRead(
                served: ServedPage(page), isIncomplete: stored.isIncomplete, fetchedAt: stored.fetchedAt,
                validators: stored.validators,
                confirmable: stored.version.map { (PageConfirmations.page(listKey, request: request), $0) })
        }
        await store.removeRows(of: problem, found: stored.elements)
        try? await disk.markIncomplete(pageOf: listKey, request: request, foundAt: stored.version)
        return StoredRead(
            served: ServedPage(page, problem: failure(problem.operation, problem)), isIncomplete: true,
            fetchedAt: stored.fetchedAt)
    }

    /// Removes the stored page `request` loaded, whose row (found at `version`) does not read,
    /// unless it was written again since; returns `error`.
    private func discarding(_ request: String?, foundAt version: Int?, _ error: CacheError) async -> CacheError {
        try? await disk.removeUnreadablePage(of: listKey, request: request, foundAt: version)
        return error
    }

    /// The page `stored` holds: its elements in the order of its ids (one the store no longer
    /// holds, or whose row does not decode, left out) and its cursors.
    private func decoded(_ stored: DiskCache.StoredPage) throws -> (Page<Element, Cursor>, ElementRowsProblem?) {
        let (items, problem) = try store.decoded(ids: stored.ids, rows: stored.elements)
        var page = Page(
            items: items, previousCursor: try stored.previousCursor.map(Self.decoded),
            nextCursor: try stored.nextCursor.map(Self.decoded))
        page.storedAt = stored.readAt
        return (page, problem)
    }

    /// A cursor from its stored form.
    private static func decoded(_ cursor: String) throws -> Cursor {
        try JSONDecoder().decode(Cursor.self, from: Data(cursor.utf8))
    }
}
