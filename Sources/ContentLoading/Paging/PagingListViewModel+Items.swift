extension PagingListViewModel where Element: Identifiable {
    /// Loads the next page when `currentItem` is within ``prefetchDistance`` of the end, or the
    /// previous page when it is that close to the start.
    ///
    /// - Returns: The handle of the page started or already loading, or a settled one when
    ///   none is.
    @discardableResult
    public func loadMoreIfNeeded(currentItem: Element) -> NextPageHandle {
        // NB: found through the list's keys when they are the ids; otherwise searched from the
        // end, where a prefetching row usually is.
        let index =
            deduplicationKey?.isID == true
            ? items.firstIndex(ofID: currentItem.id, key: deduplicationKey)
            : items.lastIndex { $0.id == currentItem.id }
        guard let index else { return pageHandle(nil, .next) }
        return loadMoreIfNeeded(currentIndex: index)
    }

    /// Replaces the loaded item with `item`'s id by `item`, without reloading any page.
    ///
    /// - Returns: `false` when no loaded item has that id.
    @discardableResult
    public func replaceItem(_ item: Element) -> Bool {
        guard var list = content, let index = list.firstIndex(ofID: item.id, key: deduplicationKey) else {
            return false
        }
        list.replace(at: index, with: item, key: deduplicationKey)
        replaceContent(with: list)
        return true
    }

    /// Removes the loaded item with id `id`, without reloading any page. A list left with no
    /// item but pages beyond it does not load on by itself: ``loadNextPage()`` goes on.
    ///
    /// - Returns: `false` when no loaded item has that id.
    @discardableResult
    public func removeItem(id: Element.ID) -> Bool {
        guard var list = content, let index = list.firstIndex(ofID: id, key: deduplicationKey) else { return false }
        list.remove(at: index, key: deduplicationKey)
        showEdit(list)
        return true
    }
}
