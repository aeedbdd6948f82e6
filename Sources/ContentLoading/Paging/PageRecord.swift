/// What a ``PagedList`` keeps of each page: how many items it added, how it was requested (to
/// request it again after a page window dropped it) and the cursors of its neighbours.
struct PageRecord<Cursor: Sendable>: Sendable {
    /// How many items the page added to the list (after deduplication).
    var count: Int
    /// The request that loaded it.
    var request: PageLocator<Cursor>
    /// The cursor of the page before it, from the source.
    var previousCursor: Cursor?
    /// The cursor of the page after it, from the source.
    var nextCursor: Cursor?
    /// The store's version the page held every change up to when it joined (see
    /// ``Page/storedAt``); `nil` when no store served it.
    var storedAt: UInt64? = nil

    /// The same record with `count` items.
    func counting(_ count: Int) -> PageRecord {
        var record = self
        record.count = count
        return record
    }
}

/// Where a page is: the initial page (cursor `nil`), or the page at a cursor.
enum PageLocator<Cursor: Sendable>: Sendable {
    case initial
    case cursor(Cursor)

    /// The cursor ``PagingListViewModel/loadPage(_:cursor:)`` gets for it.
    var cursor: Cursor? {
        if case .cursor(let cursor) = self { cursor } else { nil }
    }
}
