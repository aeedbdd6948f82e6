import ContentLoadingSupport

/// The page loads at either end of the list: one mechanism, two ends.
extension PagingListViewModel {
    func end(_ direction: PagingDirection) -> PageLoadEnd<Element, Cursor> {
        direction == .next ? nextEnd : previousEnd
    }

    /// The state of the page load at `direction`'s end, without registering an observation.
    func currentPageState(_ direction: PagingDirection) -> NextPageState {
        let list = storedState.content
        let hasPage = direction == .next ? list?.hasMore : list?.hasPrevious
        return end(direction).state(for: list, isEmpty: storedState.phase == .empty, hasPage: hasPage ?? false)
    }

    /// Starts the page at `direction`'s end when that end is `idle` (or `failed`, to retry);
    /// while a page is loading there, returns a handle that awaits that page.
    func loadPage(_ direction: PagingDirection, retrying: Bool) -> NextPageHandle {
        let state = currentPageState(direction)
        if state == .loading { return pageHandle(end(direction).shared.settle.withLock { $0 }, direction) }
        let canStart = retrying ? state.isFailed : state == .idle
        guard canStart, !storedState.isLoading, let list = storedState.content else {
            return pageHandle(nil, direction)
        }
        return pageHandle(startPage(direction, of: list), direction)
    }

    /// Stops the page at `direction`'s end from loading, if it is.
    func cancelPage(_ direction: PagingDirection) {
        end(direction).shared.task.withLock { $0 }?.cancel()
        setActivity(.idle, at: direction)
    }

    func pageHandle(_ signal: SettleSignal<Void>?, _ direction: PagingDirection) -> NextPageHandle {
        NextPageHandle(signal: signal) { [weak self] in self?.currentPageState(direction) ?? .idle }
    }

    /// Publishes the state of both ends to observers and streams, where it changed.
    func publishPageStates() {
        publish(.next)
        publish(.previous)
    }

    // MARK: - Private

    /// Starts the page of `list` at `direction`'s end; returns the signal its handle awaits.
    private func startPage(_ direction: PagingDirection, of list: PagedList<Element, Cursor>) -> SettleSignal<Void>? {
        let request = direction == .next ? list.nextRequest : list.previousRequest
        guard let request, let input = list.origin.input as? Input else { return nil }
        let origin = list.origin
        let end = end(direction)
        setActivity(.loading(origin), at: direction)
        end.loadNumber &+= 1
        let load = PageLoad(direction: direction, number: end.loadNumber, origin: origin)
        let settle = SettleSignal<Void>()
        end.shared.settle.withLock { $0 = settle }
        let loadPage = pageFunction(direction)
        let heard = heardChanges.mark
        let task = Task { [weak self] in
            defer { settle.resolve(()) }
            do {
                let served = try await loadPage(input, request.cursor)
                guard let self else { return }
                let added = self.add(served.page, requested: request, by: load, heardSince: heard)
                // NB: what of the page could not be served is an error beside the list that shows the page.
                if added, let problem = served.problem, self.machine.report(problem) { self.publish() }
            } catch {
                self?.pageFailed(error, by: load)
            }
        }
        end.shared.task.withLock { $0 = task }
        return settle
    }

    /// Whether `load` is the page load in flight at its end: started last there, for the list
    /// shown, and neither cancelled nor failed since.
    private func isCurrent(_ load: PageLoad) -> Bool {
        let end = end(load.direction)
        guard case .loading(let loading) = end.activity, loading === load.origin else { return false }
        return end.loadNumber == load.number
    }

    /// Adds `page` at its load's end of the list, if that load is still the one awaited there.
    /// When the page window drops pages from the other end, a page loading there is cancelled:
    /// it would no longer join the list.
    ///
    /// - Returns: Whether the page joined the list.
    private func add(
        _ page: Page<Element, Cursor>, requested request: PageLocator<Cursor>, by load: PageLoad, heardSince heard: Int
    ) -> Bool {
        let direction = load.direction
        guard isCurrent(load), var list = storedState.content, list.origin === load.origin else { return false }
        // NB: a cursor that leads back to this page, to a page the list holds or to one loaded
        // before it at this end would load the pages from there for ever.
        if let onward = direction == .next ? page.nextCursor : page.previousCursor,
            list.leadsBack(onward, from: request, at: direction)
                || end(direction).cursorCycle.repeats(onward, givenByPageAt: request.cursor, of: list.origin)
        {
            let repeated = RepeatedCursorError(
                cursor: "\(onward)", loadedAt: request.cursor.map { "\($0)" }, isNextCursor: direction == .next)
            pageFailed(repeated, by: load)
            return false
        }
        let droppedOtherEnd: Bool
        switch direction {
        case .next: droppedOtherEnd = list.append(page, requested: request, window: pageWindow, key: deduplicationKey)
        case .previous:
            droppedOtherEnd = list.prepend(page, requested: request, window: pageWindow, key: deduplicationKey)
        }
        // NB: a change heard while the page loaded may be newer than the page.
        _ = heardChanges.apply(since: heard, to: &list, key: deduplicationKey)
        if droppedOtherEnd { cancelPage(direction == .next ? .previous : .next) }
        end(direction).activity = .idle
        end(direction).shared.resolveSettle()
        replaceContent(with: list)
        return true
    }

    private func pageFailed(_ error: any Error, by load: PageLoad) {
        guard isCurrent(load) else { return }
        let isCancellation = error is CancellationError || Task.isCancelled
        setActivity(isCancellation ? .idle : .failed(load.origin, error), at: load.direction)
    }

    private func setActivity(_ activity: PageLoadEnd<Element, Cursor>.Activity, at direction: PagingDirection) {
        let end = end(direction)
        end.activity = activity
        // NB: the awaited page settles as soon as it stops loading, even when its task (a
        // loader that ignores cancellation) runs on.
        if case .loading = activity {} else { end.shared.resolveSettle() }
        publish(direction)
    }

    private func publish(_ direction: PagingDirection) {
        let end = end(direction)
        let current = currentPageState(direction)
        guard current != end.published else { return }
        let keyPath = direction == .next ? nextPageStateKeyPath : previousPageStateKeyPath
        observationRegistrar.withMutation(of: self, keyPath: keyPath) { end.published = current }
        end.shared.states.send(current)
    }
}

extension NextPageState {
    /// Whether this is `failed`.
    var isFailed: Bool {
        if case .failed = self { true } else { false }
    }
}

/// One page load: the end it extends, its number there, and the list it was started for.
private struct PageLoad: Sendable {
    let direction: PagingDirection
    let number: Int
    let origin: PagingOrigin
}
