extension PagingListViewModel {
    /// The load state of the next page: `idle` before the first page, `endReached` after the
    /// last one. Observable, like ``ContentLoadingViewModel/state``.
    public var nextPageState: NextPageState {
        observationRegistrar.access(self, keyPath: nextPageStateKeyPath)
        return currentPageState(.next)
    }

    /// A new stream of next-page states: the current one first, then each change.
    public var nextPageStateUpdates: AsyncStream<NextPageState> {
        nextEnd.shared.states.subscribe(initial: currentPageState(.next))
    }

    /// Appends the next page. Starts nothing while a next page or a refresh is loading, after a
    /// failed page (see ``retryNextPage()``), before the first page, or at the end.
    ///
    /// - Returns: A handle to await the page (``NextPageHandle/settled()``), the one already
    ///   loading when there is one; ignore it freely.
    @discardableResult
    public func loadNextPage() -> NextPageHandle {
        loadPage(.next, retrying: false)
    }

    /// Loads the next page that failed again.
    ///
    /// - Returns: A handle to await the page (``NextPageHandle/settled()``); ignore it freely.
    @discardableResult
    public func retryNextPage() -> NextPageHandle {
        loadPage(.next, retrying: true)
    }

    /// Stops the next page from loading, if it is (a refresh does this too).
    public func cancelNextPage() {
        cancelPage(.next)
    }

    /// Loads the next page when the item at `currentIndex` is within ``prefetchDistance`` of
    /// the end, or the previous page when it is within ``prefetchDistance`` of the start and
    /// there is one: the call a row makes when it appears. A distance below 0 counts as 0.
    ///
    /// - Returns: The handle of the page started or already loading, or a settled one when
    ///   none is.
    @discardableResult
    public func loadMoreIfNeeded(currentIndex: Int) -> NextPageHandle {
        // NB: `itemCount - 1 - prefetchDistance` overflowed for `Int.min`; from 0 it cannot.
        let distance = max(prefetchDistance, 0)
        if currentIndex >= itemCount - 1 - distance, content?.hasMore == true { return loadNextPage() }
        if currentIndex <= distance, content?.hasPrevious == true { return loadPreviousPage() }
        return pageHandle(nil, .next)
    }
}
