extension PagingListViewModel {
    /// The load state of the next page: `idle` before the first page, `endReached` after an
    /// empty one. Observable, like ``ContentLoadingViewModel/state``.
    public var nextPageState: NextPageState {
        observationRegistrar.access(self, keyPath: nextPageStateKeyPath)
        return currentNextPageState
    }

    /// ``nextPageState`` without registering an observation.
    var currentNextPageState: NextPageState {
        guard let list = storedState.content else { return storedState.phase == .empty ? .endReached : .idle }
        switch activity {
        case .loading(let origin) where origin === list.origin: return .loading
        case .failed(let origin, let error) where origin === list.origin: return .failed(error)
        default: return list.hasMore ? .idle : .endReached
        }
    }

    /// A new stream of next-page states: the current one first, then each change.
    public var nextPageStateUpdates: AsyncStream<NextPageState> {
        nextPageStates.subscribe(initial: currentNextPageState)
    }

    /// Appends the next page. Does nothing while a page or a refresh is loading, after a
    /// failed page (see ``retryNextPage()``), before the first page, or at the end.
    public func loadNextPage() {
        guard case .idle = currentNextPageState, !storedState.isLoading, let list = storedState.content, list.hasMore
        else {
            return
        }
        startNextPage(of: list)
    }

    /// Loads the page that failed again.
    public func retryNextPage() {
        guard case .failed = currentNextPageState, !storedState.isLoading, let list = storedState.content else {
            return
        }
        startNextPage(of: list)
    }

    /// Loads the next page when the item at `currentIndex` is within ``prefetchDistance`` of
    /// the end: the call a row makes when it appears.
    public func loadMoreIfNeeded(currentIndex: Int) {
        guard currentIndex >= itemCount - 1 - prefetchDistance else { return }
        loadNextPage()
    }

    /// Stops the next page from loading, if it is (a refresh does this too).
    public func cancelNextPage() {
        nextPageTask.withLock { $0 }?.cancel()
        setActivity(.idle)
    }

    // MARK: - Private

    private func startNextPage(of list: PagedList<Element, Cursor>) {
        guard let cursor = list.nextCursor, let input = list.origin.input as? Input else { return }
        let origin = list.origin
        setActivity(.loading(origin))
        let task = Task { [weak self] in
            do {
                guard let page = try await self?.loadPage(input, cursor: cursor), let self else { return }
                self.append(try self.checked(page), to: origin)
            } catch {
                self?.nextPageFailed(error, in: origin)
            }
        }
        nextPageTask.withLock { $0 = task }
    }

    private func append(_ page: Page<Element, Cursor>, to origin: PagingOrigin) {
        guard case .loading(let loading) = activity, loading === origin, var list = storedState.content,
            list.origin === origin
        else {
            return
        }
        list.append(page, window: pageWindow, key: deduplicationKey)
        activity = .idle
        replaceContent(with: list)
    }

    private func nextPageFailed(_ error: any Error, in origin: PagingOrigin) {
        guard case .loading(let loading) = activity, loading === origin else { return }
        let isCancellation = error is CancellationError || Task.isCancelled
        setActivity(isCancellation ? .idle : .failed(origin, error))
    }

    private func setActivity(_ newActivity: Activity) {
        activity = newActivity
        publishNextPageState()
    }

    func publishNextPageState() {
        let current = currentNextPageState
        guard current != publishedNextPageState else { return }
        observationRegistrar.withMutation(of: self, keyPath: nextPageStateKeyPath) { publishedNextPageState = current }
        nextPageStates.send(current)
    }
}
