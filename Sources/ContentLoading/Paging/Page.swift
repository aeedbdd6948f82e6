/// One page of a paged list: its items and the cursors of the pages on either side.
///
/// ```swift
/// let page = Page(items: response.items, nextCursor: response.nextToken)   // nil: the last page
/// let day = Page(items: today.messages, previousCursor: today.earlier, nextCursor: today.later)
/// ```
///
/// A source that pages both ways gives both cursors; a list opened in the middle (the page a
/// ``PagingListViewModel`` loads for cursor `nil` may be any page, such as today's messages)
/// then loads earlier pages with ``PagingListViewModel/loadPreviousPage()``.
public struct Page<Element: Sendable, Cursor: Sendable>: Sendable {
    /// The page's items.
    public var items: [Element]
    /// The cursor of the page before this one, or `nil` when this is the first page.
    public var previousCursor: Cursor?
    /// The cursor of the next page, or `nil` when this is the last page.
    public var nextCursor: Cursor?
    /// The store's version the page holds every change up to, when a store serves it: the
    /// version of the write that stored it, or the file's version when it was read. A change
    /// the store made at that version or before is in the page already (a model that hears it
    /// late does not apply it to the page's items again). `nil` for a page a loader made.
    package var storedAt: UInt64? = nil

    /// Creates a page.
    public init(items: [Element], previousCursor: Cursor? = nil, nextCursor: Cursor?) {
        self.items = items
        self.previousCursor = previousCursor
        self.nextCursor = nextCursor
    }
}

extension Page where Cursor == Int {
    /// A page of offset paging: `items` start at `offset`; the next cursor is the offset after
    /// them, or `nil` when they reach `totalCount`; the previous cursor is `limit` items
    /// earlier (from 0), or `nil` at offset 0.
    ///
    /// Knowing the total is what spares the request that would come back empty when the list's
    /// size is a multiple of the page size. Without it (`totalCount: nil`) a page shorter than
    /// `limit` ends the list. A list never goes past `Int.max` items: a page whose next offset
    /// would is the last one (an offset from outside, a deep link's, may be that far).
    public static func offset(_ items: [Element], at offset: Int, limit: Int, totalCount: Int?) -> Page {
        // NB: no arithmetic that can overflow: `offset + items.count` trapped for an offset
        // near `Int.max`, `offset - limit` for a negative limit.
        let (next, isPastTheEnd) = offset.addingReportingOverflow(items.count)
        let hasMore = !isPastTheEnd && (totalCount.map { next < $0 } ?? (items.count >= limit))
        return Page(
            items: items, previousCursor: offset > 0 ? offset - min(max(limit, 0), offset) : nil,
            nextCursor: hasMore && !items.isEmpty ? next : nil)
    }
}
