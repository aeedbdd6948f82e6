extension PagedList: Equatable where Element: Equatable, Cursor: Equatable {
    /// Two lists are equal when they hold equal items in the same order, have the same next
    /// cursor and the same ``pagesLoaded``.
    ///
    /// How the items are stored does not count: a list built page by page equals one built
    /// from the same pages in another model. Comparing is O(n) in the items.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.count == rhs.count && lhs.nextCursor == rhs.nextCursor && lhs.pagesLoaded == rhs.pagesLoaded
            && lhs.elementsEqual(rhs)
    }
}
