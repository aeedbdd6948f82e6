extension ContentLoadingStateMachine {
    /// A refresh with `input` arrived.
    ///
    /// - Parameters:
    ///   - input: The input to load.
    ///   - defersLoading: When `true`, a load that starts with nothing shown (`unloaded`)
    ///     leaves the state `unloaded` until it delivers a value, an error or an end, or asks
    ///     with ``showLoading(from:)``: a load that first looks in a cache shows no blank
    ///     `loading` before a cache hit. Defaults to `false`.
    @inlinable public mutating func refresh(_ input: Input, defersLoading: Bool = false) -> RefreshAction {
        guard let running = activeLoad else {
            storedLastInput = input
            return .start(begin(input, as: issue(), defersLoading: defersLoading), cancelling: nil)
        }
        // NB: a load that caught up (an observation that goes on after its refresh completed)
        // works on no refresh: there is nothing to join or to wait for, so it is replaced.
        let isCaughtUp = lastCompleted.map { running <= $0 } ?? false
        switch isCaughtUp ? .latestWins : policy {
        case .latestWins:
            storedLastInput = input
            return .start(begin(input, as: issue(), defersLoading: defersLoading), cancelling: running)
        case .joinInFlight:
            return .join(running)
        case .enqueueLatest:
            storedLastInput = input
            let ticket = queued?.id ?? issue()
            queued = LoadRequest(id: ticket, input: input, defersLoading: defersLoading)
            return .enqueue(ticket: ticket)
        }
    }

    /// Load `id` produced `output`; `isEmpty` says whether it counts as empty.
    ///
    /// - Returns: `true` when the value was applied, `false` when it was discarded because
    ///   `id` is not the running load.
    @discardableResult
    @inlinable public mutating func receive(_ output: Output, isEmpty: Bool, from id: LoadID) -> Bool {
        guard id == activeLoad else { return false }
        setState(isEmpty ? .empty : .success(output), contentChanged: true)
        storedLastError = nil
        markSettled(id)
        return true
    }

    /// Load `id`, which keeps running (an observation), found that its source holds no value
    /// now: what it showed was removed. The state becomes `empty`, the content dropped, and
    /// later values from `id` still re-enter `success`.
    ///
    /// - Returns: `true` when the state changed, `false` when `id` is not the running load.
    @discardableResult
    @inlinable public mutating func clear(from id: LoadID) -> Bool {
        guard id == activeLoad else { return false }
        setState(.empty, contentChanged: state.content != nil)
        storedLastError = nil
        markSettled(id)
        return true
    }

    /// Load `id` failed with `error` (which must not be a cancellation).
    @inlinable public mutating func fail(_ error: any Error, from id: LoadID) -> CompletionAction {
        guard id == activeLoad else { return .discard }
        setState(.error(error, previous: state.content), contentChanged: false)
        storedLastError = error
        changes.insert(.error)
        return end(id)
    }

    /// Load `id` reported `error` without ending (an error event of a multi-value producer):
    /// the state becomes `error` with the content kept, and later values from `id` still
    /// re-enter `success` / `empty`.
    ///
    /// - Returns: `false`, changing nothing, when `id` is not the running load.
    @discardableResult
    @inlinable public mutating func report(_ error: any Error, from id: LoadID) -> Bool {
        guard id == activeLoad else { return false }
        setState(.error(error, previous: state.content), contentChanged: false)
        storedLastError = error
        changes.insert(.error)
        markSettled(id)
        return true
    }

    /// An error met outside a load, beside content that is still good: a local edit that was
    /// only partly done, such as a page that joined the list without the items it could not
    /// read. The state becomes `error` with the content kept, as for ``report(_:from:)``; the
    /// next value (a refresh's, or ``replaceContent(_:isEmpty:)``'s, which keeps the phase)
    /// shows with it until a load settles.
    ///
    /// - Returns: `false`, changing nothing, while a load runs (its result decides the state)
    ///   or when there is no content to keep.
    @discardableResult
    @inlinable public mutating func report(_ error: any Error) -> Bool {
        guard activeLoad == nil, state.content != nil else { return false }
        setState(.error(error, previous: state.content), contentChanged: false)
        storedLastError = error
        changes.insert(.error)
        return true
    }

    /// Load `id`, which keeps running (an observation), has done what its refresh asked for:
    /// a cached loader's revalidation ended and what it fetched is stored and shown. The
    /// refreshes it serves are complete; later values from `id` still arrive.
    ///
    /// - Returns: `false`, changing nothing, when `id` is not the running load or has not
    ///   settled yet (a load is complete only once something is shown).
    @discardableResult
    @inlinable public mutating func caughtUp(from id: LoadID) -> Bool {
        guard id == activeLoad, lastSettled.map({ id <= $0 }) == true, lastCompleted.map({ $0 < id }) ?? true
        else { return false }
        markCompleted(id)
        return true
    }

    /// Starts the refresh queued behind load `id` once `id` has caught up (``caughtUp(from:)``):
    /// an observation that goes on after its refresh completed works on no refresh, so the
    /// queued one replaces it now instead of waiting for an end that may never come.
    ///
    /// - Returns: The load to start (the caller cancels `id`'s work), or `nil` when no refresh
    ///   is queued, `id` is not the running load, or it has not caught up.
    @inlinable public mutating func startQueued(afterCatchUpOf id: LoadID) -> LoadRequest? {
        guard id == activeLoad, lastCompleted.map({ id <= $0 }) == true, let next = queued else { return nil }
        queued = nil
        return begin(next.input, as: next.id, defersLoading: next.defersLoading)
    }

    /// Load `id` finished. If it never produced a value the state becomes `empty`: the
    /// producer's answer was "nothing", and the loader must not stay stuck in `loading`
    /// (nor, for a load that defers `loading`, in `unloaded`).
    @inlinable public mutating func finish(_ id: LoadID) -> CompletionAction {
        guard id == activeLoad else { return .discard }
        if state.isLoading || isUnloaded {
            setState(.empty, contentChanged: state.content != nil)
            storedLastError = nil
        }
        return end(id)
    }

    /// Load `id` stopped with a cancellation that the caller did not ask for (for example the
    /// producer cancelled its own work). Like ``cancel()``, it is not an error: a state still
    /// `loading` returns to the last settled state.
    @inlinable public mutating func cancelled(_ id: LoadID) -> CompletionAction {
        guard id == activeLoad else { return .discard }
        if state.isLoading { setState(settledBeforeLoad, contentChanged: false) }
        return end(id)
    }

    /// The caller cancelled. Returns the load to cancel, if one was running.
    ///
    /// A state still `loading` returns to the last settled state; a queued refresh is dropped.
    /// Every refresh made so far counts as settled.
    @inlinable public mutating func cancel() -> LoadID? {
        let running = activeLoad
        storedActiveLoad = nil
        queued = nil
        if state.isLoading { setState(settledBeforeLoad, contentChanged: false) }
        if lastIssued > 0 {
            storedLastSettled = LoadID(lastIssued)
            storedLastCompleted = LoadID(lastIssued)
        }
        return running
    }

    /// Replaces the content without a load: a local edit such as an appended page or a
    /// removed item. The phase stays what it is (`success`/`empty` follow `isEmpty`); the
    /// content carried by `loading` and `error` is replaced. A running load's later result
    /// still wins over the edit.
    ///
    /// - Returns: `false`, changing nothing, when the state is `unloaded`.
    @discardableResult
    @inlinable public mutating func replaceContent(_ output: Output, isEmpty: Bool) -> Bool {
        guard case .unloaded = state else {
            if state.isLoading {
                settledBeforeLoad = settledBeforeLoad.replacingContent(with: output, isEmpty: isEmpty)
            }
            setState(state.replacingContent(with: output, isEmpty: isEmpty), contentChanged: true)
            return true
        }
        return false
    }

    /// What changed since the last call; the caller publishes exactly these.
    @inlinable public mutating func takeChanges() -> ContentLoadingChanges {
        defer { changes = [] }
        return changes
    }

    // MARK: - Steps

    @inlinable mutating func issue() -> LoadID {
        lastIssued += 1
        return LoadID(lastIssued)
    }

    @inlinable mutating func begin(_ input: Input, as id: LoadID, defersLoading: Bool) -> LoadRequest {
        storedActiveLoad = id
        let request = LoadRequest(id: id, input: input, defersLoading: defersLoading)
        if defersLoading && isUnloaded { return request }
        if !state.isLoading {
            settledBeforeLoad = state
            setState(.loading(previous: state.content), contentChanged: false)
        }
        return request
    }

    @inlinable mutating func end(_ id: LoadID) -> CompletionAction {
        storedActiveLoad = nil
        markSettled(id)
        markCompleted(id)
        guard let next = queued else { return .settled(next: nil) }
        queued = nil
        return .settled(next: begin(next.input, as: next.id, defersLoading: next.defersLoading))
    }

    @inlinable mutating func markSettled(_ id: LoadID) {
        if lastSettled.map({ $0 < id }) ?? true { storedLastSettled = id }
    }

    @inlinable mutating func markCompleted(_ id: LoadID) {
        if lastCompleted.map({ $0 < id }) ?? true { storedLastCompleted = id }
    }

    @inlinable mutating func setState(_ newState: ContentLoadingState<Output>, contentChanged: Bool) {
        storedState = newState
        changes.insert(.state)
        if contentChanged { changes.insert(.content) }
    }
}
