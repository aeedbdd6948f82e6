/// One page of a paged list: its items and the cursor of the page after it.
///
/// ```swift
/// Page(items: response.items, nextCursor: response.nextToken)   // nil: this is the last page
/// ```
public struct Page<Element: Sendable, Cursor: Sendable>: Sendable {
    /// The page's items.
    public var items: [Element]
    /// The cursor of the next page, or `nil` when this is the last page.
    public var nextCursor: Cursor?

    /// Creates a page.
    public init(items: [Element], nextCursor: Cursor?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}

extension Page where Cursor == Int {
    /// A page of offset paging: `items` start at `offset`; the next cursor is the offset after
    /// them, or `nil` when they reach `totalCount`.
    ///
    /// Knowing the total is what spares the request that would come back empty when the list's
    /// size is a multiple of the page size. Without it (`totalCount: nil`) a page shorter than
    /// `limit` ends the list.
    public static func offset(_ items: [Element], at offset: Int, limit: Int, totalCount: Int?) -> Page {
        let next = offset + items.count
        let hasMore = totalCount.map { next < $0 } ?? (items.count >= limit)
        return Page(items: items, nextCursor: hasMore && !items.isEmpty ? next : nil)
    }
}
