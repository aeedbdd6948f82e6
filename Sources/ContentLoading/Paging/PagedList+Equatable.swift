extension PagedList: Equatable where Element: Equatable, Cursor: Equatable {
    /// Two lists are equal when they hold equal items in the same order, can load the same
    /// pages on either side (the same cursors, the same pages dropped by a window), and have
    /// the same ``pagesLoaded`` and ``itemsBefore``.
    ///
    /// How the items are stored does not count: a list built page by page equals one built
    /// from the same pages in another model. Comparing is O(n) in the items.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.count == rhs.count && lhs.pagesLoaded == rhs.pagesLoaded && lhs.itemsBefore == rhs.itemsBefore
            && lhs.nextCursor == rhs.nextCursor && lhs.hasMore == rhs.hasMore
            && lhs.previousCursor == rhs.previousCursor && lhs.hasPrevious == rhs.hasPrevious
            && lhs.elementsEqual(rhs)
    }
}
