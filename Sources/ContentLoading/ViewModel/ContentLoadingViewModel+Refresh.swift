import ContentLoadingSupport
import Observation

extension ContentLoadingViewModel {
    /// Whether a load is running.
    public var isLoading: Bool { state.isLoading }

    /// The last good content: the success value, kept through `loading` and `error`;
    /// `nil` before the first value and after an empty result.
    public var content: Output? { state.content }

    /// Starts loading `input`, following the model's ``RefreshPolicy``.
    ///
    /// - Returns: A handle to await until the model settles; it can be ignored.
    @inlinable @discardableResult
    public func refresh(_ input: Input) -> RefreshHandle<Output> {
        let action = machine.refresh(input, defersLoading: defersLoading)
        if case .start(let request, _) = action { start(request) }
        publish()
        return outlets.handle(ticket: action.ticket, model: self)
    }

    /// Cancels the running load. A state still `loading` returns to the last settled state
    /// (or ``ContentLoadingState/unloaded``); a cancellation never produces an error.
    @inlinable public func cancel() {
        if machine.cancel() != nil { taskChange = .cancel }
        publish()
    }

    // MARK: - Driving loads

    @inlinable func start(_ request: ContentLoadingStateMachine<Input, Output>.LoadRequest) {
        let producer = producer(for: request.input)
        let id = request.id
        // NB: the task holds the model weakly (by the model's one `WeakReference`, which costs
        // a retain), so releasing the model is never blocked by its own work; `deinit`
        // cancels the task. A cancelled task's load is never the running one (replacing,
        // cancelling and releasing all move the machine on first), so a load superseded before
        // it began never runs its producer; the result of one superseded while running is
        // discarded by the model, which checks the load's identifier.
        let model = weakReference
        let load = loadFunction
        let task = Task {
            guard !Task.isCancelled else { return }
            do {
                switch producer.body {
                case .single(let single):
                    let output: Output
                    switch single {
                    case .closure(let operation): output = try await operation()
                    case .modelLoad(let input): output = try await load(Self.unerased(input))
                    }
                    model.object?.complete(output, from: id)
                    return
                case .reporting(let run):
                    try await run(
                        LoadReporter(
                            deliver: { event in await model.object?.deliver(event, from: id) },
                            askForLoading: { await model.object?.showLoading(for: id) },
                            reportCaughtUp: { await model.object?.caughtUp(id) },
                            reportNoValue: { await model.object?.clear(id) }))
                }
                model.object?.end(id, by: nil)
            } catch {
                guard !Task.isCancelled else { return }
                model.object?.end(id, by: error)
            }
        }
        taskChange = .replace(task)  // NB: the publish that follows every start makes it the running task.
    }

    /// `input`, an `Input` the default producer carried type-erased.
    @inlinable nonisolated static func unerased(_ input: some Sendable) -> Input {
        // NB: unreachable: only the default producer makes a `modelLoad`, from an `Input`. A
        // checked cast: the unchecked one bought 2.5% of a refresh cycle, under the 10% bar.
        guard let input = input as? Input else { preconditionFailure("\(type(of: input)) is not \(Input.self)") }
        return input
    }

    @inlinable func deliver(_ output: Output, from id: LoadID) {
        guard id == machine.activeLoad else { return }
        receive(output, from: id)
        publish()
    }

    /// Hands the machine load `id`'s value and starts the content's age.
    @inlinable func receive(_ output: Output, from id: LoadID) {
        if machine.receive(output, isEmpty: isEmpty(output), from: id) {
            contentTimer = stopwatch.start()
        }
    }

    @inlinable func deliver(_ event: ContentEvent<Output>, from id: LoadID) {
        switch event {
        case .value(let output):
            deliver(output, from: id)
        case .error(let error):
            if machine.report(error, from: id) { publish() }
        }
    }

    /// Load `id`, which deferred `loading`, asks for it: it found nothing to show at once.
    @inlinable func showLoading(for id: LoadID) {
        if machine.showLoading(from: id) { publish() }
    }

    /// Load `id`, which goes on running, caught up with what its refresh asked for: a refresh
    /// queued behind it starts now.
    @inlinable func caughtUp(_ id: LoadID) {
        let changed = machine.caughtUp(from: id)
        let next = machine.startQueued(afterCatchUpOf: id)
        if let next { start(next) }
        if changed || next != nil { publish() }
    }

    /// Load `id`, which goes on running, found that its source holds no value now.
    @inlinable func clear(_ id: LoadID) {
        guard machine.clear(from: id) else { return }
        contentTimer = stopwatch.start()
        publish()
    }

    /// Load `id` ended: it finished when `error` is `nil`, else it failed or cancelled itself.
    @inlinable func end(_ id: LoadID, by error: (any Error)?) {
        let action =
            switch error {
            case nil: machine.finish(id)
            case is CancellationError: machine.cancelled(id)
            case let error?: machine.fail(error, from: id)
            }
        switch action {
        case .discard: break
        case .settled(let next?): start(next)
        case .settled(nil): taskChange = .release
        }
        publish()
    }

    /// Load `id`, a single-value load, delivered `output` and ended: both are published
    /// together, as one change, unless a queued refresh starts at the end, which must not hide
    /// the value.
    @inlinable func complete(_ output: Output, from id: LoadID) {
        guard id == machine.activeLoad, !machine.hasQueuedRefresh else {
            deliver(output, from: id)
            end(id, by: nil)
            return
        }
        receive(output, from: id)
        _ = machine.finish(id)  // NB: `.settled(next: nil)`: nothing was queued.
        taskChange = .release
        publish()
    }

    /// Replaces the content without a load: a local edit, such as an appended page or a
    /// removed item, that keeps the current phase (see
    /// ``ContentLoadingStateMachine/replaceContent(_:isEmpty:)``). Does nothing before the
    /// first load. A running load's later result still wins over the edit.
    @inlinable public func replaceContent(with output: Output) {
        guard machine.replaceContent(output, isEmpty: isEmpty(output)) else { return }
        publish()
    }
}

extension ContentLoadingViewModel where Input == Void {
    /// Starts loading; the same as `refresh(())`.
    @inlinable @discardableResult
    public func refresh() -> RefreshHandle<Output> { refresh(()) }
}
