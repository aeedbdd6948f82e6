extension PagedList {
    /// Moves the first `count` items before the list, as pages that loading the previous pages
    /// brings back, and makes `places` the places before the first item (``itemsBefore``).
    ///
    /// Whole pages are dropped as a page window drops them; of a page split by `count`, the
    /// items before the split are dropped and the page's record keeps the rest.
    mutating func holdFirst(_ count: Int, placesBefore places: Int, key: DeduplicationKey<Element>?) {
        precondition(count >= 0 && count <= self.count, "Cannot hold \(count) of \(self.count) items")
        precondition(places >= 0, "No item has a place before the list's")
        var left = count
        var wholePages = 0
        let records = storage.pages(0..<extent.pages)
        while left > 0, left >= records[wholePages].count {
            droppedBefore = DroppedPages(records[wholePages], below: droppedBefore)
            left -= records[wholePages].count
            wholePages += 1
        }
        if left > 0 { droppedBefore = DroppedPages(records[wholePages], below: droppedBefore, keepsFirst: left) }
        if count > 0 {
            (storage, extent) = storage.editing(extent, key: key) { [left] elements, pages in
                elements.removeFirst(count)
                pages.removeFirst(wholePages)
                if left > 0 { pages[0].count -= left }
            }
        }
        itemsBefore = places
    }
}
