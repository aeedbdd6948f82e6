import ContentLoadingSupport

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
    ///
    /// - Returns: A handle to await the page (``NextPageHandle/settled()``); ignore it freely.
    @discardableResult
    public func loadNextPage() -> NextPageHandle {
        guard case .idle = currentNextPageState, !storedState.isLoading, let list = storedState.content, list.hasMore
        else {
            return nextPageHandle(nil)
        }
        return nextPageHandle(startNextPage(of: list))
    }

    /// Loads the page that failed again.
    ///
    /// - Returns: A handle to await the page (``NextPageHandle/settled()``); ignore it freely.
    @discardableResult
    public func retryNextPage() -> NextPageHandle {
        guard case .failed = currentNextPageState, !storedState.isLoading, let list = storedState.content else {
            return nextPageHandle(nil)
        }
        return nextPageHandle(startNextPage(of: list))
    }

    /// Loads the next page when the item at `currentIndex` is within ``prefetchDistance`` of
    /// the end: the call a row makes when it appears.
    ///
    /// - Returns: The handle of the page started, or a settled one when none was.
    @discardableResult
    public func loadMoreIfNeeded(currentIndex: Int) -> NextPageHandle {
        guard currentIndex >= itemCount - 1 - prefetchDistance else { return nextPageHandle(nil) }
        return loadNextPage()
    }

    /// Stops the next page from loading, if it is (a refresh does this too).
    public func cancelNextPage() {
        nextPageTask.withLock { $0 }?.cancel()
        setActivity(.idle)
    }

    // MARK: - Private

    /// Starts the next page of `list`; returns the signal its handle awaits.
    private func startNextPage(of list: PagedList<Element, Cursor>) -> SettleSignal<Void>? {
        guard let cursor = list.nextCursor, let input = list.origin.input as? Input else { return nil }
        let origin = list.origin
        setActivity(.loading(origin))
        let settle = SettleSignal<Void>()
        nextPageSettle.withLock { $0 = settle }
        let task = Task { [weak self] in
            defer { settle.resolve(()) }
            do {
                guard let page = try await self?.loadPage(input, cursor: cursor), let self else { return }
                self.append(try self.checked(page), to: origin)
            } catch {
                self?.nextPageFailed(error, in: origin)
            }
        }
        nextPageTask.withLock { $0 = task }
        return settle
    }

    func nextPageHandle(_ signal: SettleSignal<Void>?) -> NextPageHandle {
        NextPageHandle(signal: signal) { [weak self] in self?.currentNextPageState ?? .idle }
    }

    /// Resolves the awaited next page: it stopped loading.
    func settleNextPage() {
        nextPageSettle.withLock { settle in
            defer { settle = nil }
            return settle
        }?.resolve(())
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
