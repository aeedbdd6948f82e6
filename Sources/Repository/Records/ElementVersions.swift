import ContentLoadingSupport

/// The newest version of each element among the changes an ``ElementStore`` is sharing, so a
/// receiver can leave out what an older change brings after a newer one: two writers of one
/// element (a save, and a list fetch that stored the server's value after it) share their
/// changes concurrently, and either may reach a reader first.
///
/// Every write that is shared runs inside ``sharing(_:)``, from before the file gives it a
/// version to the end of its share. When none runs, every change has reached every listener,
/// and the versions are forgotten: a write that starts later gets a higher version than all
/// of them. So the map holds only the elements of the writes in flight and those just before.
final class ElementVersions<ID: Hashable & Sendable>: Sendable {
    /// The writes in flight, the newest version of each element they change, the newest
    /// version among them that removed every element (0: none), and the newest version of each
    /// element a page write placed in the stored pages of a list, by the list's key.
    private let state = Locked(
        (writes: 0, newest: [ID: UInt64](), all: UInt64(0), placed: [String: [ID: UInt64]]()))

    /// A write of elements and its share, run where its caller runs.
    typealias Write<Result> = nonisolated(nonsending) () async throws -> Result

    /// Runs `write`, a write of elements and its share, counted as in flight until it ends.
    ///
    /// NB: `write` runs where the caller does: an element save called on the main actor shares
    /// its change with the paging models there, without a hop.
    nonisolated(nonsending) func sharing<Result>(_ write: Write<Result>) async rethrows -> Result {
        state.withLock { $0.writes += 1 }
        defer {
            state.withLock { state in
                state.writes -= 1
                if state.writes == 0 { (state.newest, state.all, state.placed) = ([:], 0, [:]) }
            }
        }
        return try await write()
    }

    /// Records that a change of the elements `ids` at `version` is being shared (before any
    /// listener hears it); one that placed them in the stored pages of the list `pagesKey`.
    func note(_ ids: [ID], version: UInt64, placedIn pagesKey: String? = nil) {
        state.withLock { state in
            for id in ids where state.newest[id].map({ $0 < version }) ?? true { state.newest[id] = version }
            guard let pagesKey else { return }
            for id in ids where state.placed[pagesKey]?[id].map({ $0 < version }) ?? true {
                state.placed[pagesKey, default: [:]][id] = version
            }
        }
    }

    /// The elements that page writes newer than `version` placed in stored pages (or are
    /// placing), by the key of the list: a removal at `version` heard after them does not take
    /// them out of a model showing those pages.
    func placed(after version: UInt64) -> [String: Set<ID>] {
        state.withLock { state in
            state.placed.compactMapValues { versions in
                let ids = Set(versions.compactMap { $0.value > version ? $0.key : nil })
                return ids.isEmpty ? nil : ids
            }
        }
    }

    /// Whether a change of element `id` newer than `version` is being shared (or was): a
    /// receiver that hears the older one after it keeps the newer.
    func isSuperseded(_ id: ID, at version: UInt64) -> Bool {
        state.withLock { max($0.newest[id] ?? 0, $0.all) > version }
    }

    /// Records that a removal of every element at `version` is being shared.
    func noteRemovalOfAll(version: UInt64) {
        state.withLock { $0.all = max($0.all, version) }
    }
}
