import ContentLoadingSupport

/// The last pages at either end, which a page's cursor to go on from must not lead back to.
extension PagedList {
    /// How many pages at an end a new page's onward cursor is compared with: a cycle through up
    /// to this many pages (and the new one) is found, at a cost that does not grow with the list.
    static var recentPageCount: Int { 4 }

    /// Whether `cursor`, the onward cursor of the page `request` loaded at `direction`'s end, is
    /// that page's own, or loaded one of the last ``recentPageCount`` pages held there (compared
    /// when `Cursor` is `Equatable`).
    func leadsBack(_ cursor: Cursor, from request: PageLocator<Cursor>, at direction: PagingDirection) -> Bool {
        if let loaded = request.cursor, isSame(loaded, cursor) { return true }
        let count = Swift.min(Self.recentPageCount, extent.pages)
        guard count > 0 else { return false }
        let range = direction == .next ? extent.pages - count..<extent.pages : 0..<count
        return storage.pages(range).contains { record in record.request.cursor.map { isSame($0, cursor) } ?? false }
    }
}
