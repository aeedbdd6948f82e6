/// Which changes of a store the pages of a list hold already: each page served by a store
/// carries the store's version it holds every change up to (``Page/storedAt``). A change heard
/// late (after a page written or read after it joined) is not applied to that page's items:
/// applied, a removal would take out an element the store put back after it, and a save would
/// bring back an older value.
extension PagedList {
    /// Whether the page holding item `index` holds the store's change made at `version`
    /// already (`false` for a change or a page with no version).
    func holdsChange(at version: UInt64?, itemAt index: Int) -> Bool {
        guard mayHoldChange(at: version) else { return false }
        return Self.page(storedAt: storage.page(holding: index, in: extent)?.storedAt, holdsChangeAt: version)
    }

    /// Whether any page may hold the change made at `version` already: when none may (the
    /// usual case, a change newer than every page), nothing needs looking up item by item.
    func mayHoldChange(at version: UInt64?) -> Bool {
        Self.page(storedAt: newestStoredAt, holdsChangeAt: version)
    }

    /// Whether a page a store served at `storedAt` holds the change it made at `version`
    /// (`false` when either has no version).
    static func page(storedAt: UInt64?, holdsChangeAt version: UInt64?) -> Bool {
        guard let storedAt, let version else { return false }
        return version <= storedAt
    }

    /// The newer of two versions, either perhaps none.
    static func newest(_ first: UInt64?, _ second: UInt64?) -> UInt64? {
        guard let first else { return second }
        guard let second else { return first }
        return Swift.max(first, second)
    }
}
