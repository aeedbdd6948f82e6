extension PagingListViewModel {
    /// The load state of the previous page (before the first loaded one): `endReached` when
    /// there is none (the first page has no previous cursor and no page was dropped from the
    /// start). Observable, like ``ContentLoadingViewModel/state``.
    public var previousPageState: NextPageState {
        observationRegistrar.access(self, keyPath: previousPageStateKeyPath)
        return currentPageState(.previous)
    }

    /// A new stream of previous-page states: the current one first, then each change.
    public var previousPageStateUpdates: AsyncStream<NextPageState> {
        previousEnd.shared.states.subscribe(initial: currentPageState(.previous))
    }

    /// Prepends the previous page: the page before the first loaded one, by the first page's
    /// previous cursor, or a page the window dropped from the start (loaded again by the
    /// request that first loaded it). Single-flight, independent of the next page. Starts
    /// nothing while a previous page or a refresh is loading, after a failed previous page
    /// (see ``retryPreviousPage()``), before the first page, or when there is none.
    ///
    /// ```swift
    /// List(model.items) { message in
    ///     MessageRow(message).onAppear { model.loadMoreIfNeeded(currentItem: message) }   // both ends
    /// }
    /// ```
    ///
    /// - Returns: A handle to await the page (``NextPageHandle/settled()``, which returns the
    ///   previous-page state), the one already loading when there is one; ignore it freely.
    @discardableResult
    public func loadPreviousPage() -> NextPageHandle {
        loadPage(.previous, retrying: false)
    }

    /// Loads the previous page that failed again.
    ///
    /// - Returns: A handle to await the page; ignore it freely.
    @discardableResult
    public func retryPreviousPage() -> NextPageHandle {
        loadPage(.previous, retrying: true)
    }

    /// Stops the previous page from loading, if it is (a refresh does this too).
    public func cancelPreviousPage() {
        cancelPage(.previous)
    }
}
