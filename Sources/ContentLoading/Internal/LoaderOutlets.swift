import ContentLoadingSupport

/// Everything a ``ContentLoadingViewModel`` hands out or runs that must be reachable from its
/// nonisolated `deinit`: the running task, the streams, and the refresh handles waiting to
/// settle.
package final class LoaderOutlets<Output: Sendable>: Sendable {
    private struct Shared {
        var task: Task<Void, Never>?
        var waiters: [(ticket: LoadID, signal: SettleSignal<ContentLoadingState<Output>>)] = []
        var current: ContentLoadingState<Output> = .unloaded
        var isShutDown = false
    }

    package let states = Broadcast<ContentLoadingState<Output>>()
    package let contents = Broadcast<Output?>()
    package let errors = Broadcast<any Error>()
    private let shared = Locked(Shared())

    package init() {}

    /// The state last published.
    package var current: ContentLoadingState<Output> { shared.withLock { $0.current } }

    /// Makes `task` the running task, cancelling the one it replaces.
    package func replaceTask(with task: Task<Void, Never>?) {
        let previous = shared.withLock { shared in
            defer { shared.task = task }
            return shared.task
        }
        previous?.cancel()
    }

    /// A handle for a refresh served by load `ticket`.
    package func handle(ticket: LoadID, lastSettled: LoadID?, model: any AnyObject & Sendable) -> RefreshHandle<Output> {
        let signal = SettleSignal<ContentLoadingState<Output>>()
        let settledState: ContentLoadingState<Output>? = shared.withLock { shared in
            if shared.isShutDown || lastSettled.map({ ticket <= $0 }) == true { return shared.current }
            shared.waiters.append((ticket, signal))
            return nil
        }
        if let settledState { signal.resolve(settledState) }
        return RefreshHandle(
            signal: signal, currentState: { [weak self] in self?.current ?? settledState ?? .unloaded }, model: model)
    }

    /// Records `state` and settles every refresh served by a load up to `lastSettled`.
    package func publish(_ state: ContentLoadingState<Output>, lastSettled: LoadID?) {
        let settled = shared.withLock { shared in
            shared.current = state
            guard let lastSettled else { return [SettleSignal<ContentLoadingState<Output>>]() }
            let ready = shared.waiters.filter { $0.ticket <= lastSettled }.map(\.signal)
            shared.waiters.removeAll { $0.ticket <= lastSettled }
            return ready
        }
        for signal in settled { signal.resolve(state) }
    }

    /// Cancels the running task, finishes every stream and settles every waiting refresh.
    package func shutDown() {
        let (task, waiters, state) = shared.withLock { shared in
            shared.isShutDown = true
            defer {
                shared.task = nil
                shared.waiters = []
            }
            return (shared.task, shared.waiters.map(\.signal), shared.current)
        }
        task?.cancel()
        for signal in waiters { signal.resolve(state) }
        states.finish()
        contents.finish()
        errors.finish()
    }
}
