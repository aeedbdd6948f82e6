import ContentLoadingSupport

/// Everything a ``ContentLoadingViewModel`` hands out or runs that must be reachable from its
/// nonisolated `deinit`: the running task, the streams, and the refresh handles waiting to
/// settle.
@usableFromInline package final class LoaderOutlets<Output: Sendable>: Sendable {
    @usableFromInline struct Shared {
        @usableFromInline var task: Task<Void, Never>?
        @usableFromInline var waiters: [Waiter] = []
        @usableFromInline var nextWaiterKey: UInt64 = 0
        @usableFromInline var current: ContentLoadingState<Output> = .unloaded
        @usableFromInline var lastSettled: LoadID?
        /// The state `lastSettled` settled in: what a waiter registered after its load settled
        /// gets (the state may have moved on since: a refresh that `stateDidChange` started).
        @usableFromInline var settledState: ContentLoadingState<Output>?
        @usableFromInline var lastCompleted: LoadID?
        /// Refreshes awaited until complete (see `RefreshHandle.completed()`), in no order.
        @usableFromInline var completionWaiters: [CompletionWaiter] = []
        @usableFromInline var isShutDown = false
        /// A parked waiter no task is using, kept for the next refresh awaited on the main actor.
        @usableFromInline var idleParkedWaiter: ParkedWaiter<Output>?
    }

    @usableFromInline package let states = Broadcast<ContentLoadingState<Output>>()
    @usableFromInline package let contents = Broadcast<Output?>()
    @usableFromInline package let errors = Broadcast<any Error>()
    @usableFromInline let shared = Locked(Shared())

    package init() {}

    /// The state last published.
    @inlinable package var current: ContentLoadingState<Output> { shared.withLock { $0.current } }

    /// A handle for a refresh served by load `ticket`.
    @inlinable package func handle(ticket: LoadID, model: any AnyObject & Sendable) -> RefreshHandle<Output> {
        RefreshHandle(ticket: ticket, outlets: self, model: model)
    }

    /// Whether load `ticket` has settled.
    @inlinable func hasSettled(_ ticket: LoadID) -> Bool {
        shared.withLock { $0.isShutDown || $0.lastSettled.map { ticket <= $0 } == true }
    }

    /// Whether load `ticket` has completed.
    func hasCompleted(_ ticket: LoadID) -> Bool {
        shared.withLock { $0.isShutDown || $0.lastCompleted.map { ticket <= $0 } == true }
    }

    /// Records what the model publishes, in one lock: `state`, the newest settled load
    /// `lastSettled`, the newest completed load `lastCompleted` and a change of the load task;
    /// takes out every waiting refresh that a load up to `lastSettled` serves, handing it
    /// `state`, and every refresh awaited until complete that a load up to `lastCompleted`
    /// serves.
    ///
    /// The model releases the main-actor waiters at once and resumes the others once it has
    /// published (see `Settlement`).
    @inlinable func commit(
        _ state: ContentLoadingState<Output>, lastSettled: LoadID?, lastCompleted: LoadID?, task change: TaskChange
    ) -> Settlement {
        shared.withLock { shared in
            shared.current = state
            if lastSettled != shared.lastSettled { shared.settledState = state }
            shared.lastSettled = lastSettled
            let completed = shared.takeCompletionWaiters(completedBy: lastCompleted)
            let previous: Task<Void, Never>?
            switch change {
            case .keep: previous = nil
            case .replace(let task):
                previous = shared.task.take()
                shared.task = task
            case .cancel, .release: previous = shared.task.take()
            }
            let (first, others) = lastSettled.map { shared.takeWaiters(settledBy: $0, handing: state) } ?? (nil, [])
            return Settlement(
                state: state, first: first, others: others, completed: completed, previousTask: previous,
                cancelsPreviousTask: change.cancelsPrevious)
        }
    }

    /// Cancels the running task, finishes every stream and settles every waiting refresh.
    package func shutDown() {
        let (task, waiters, completionWaiters, state) = shared.withLock { shared in
            shared.isShutDown = true
            defer {
                shared.task = nil
                shared.waiters = []
                shared.completionWaiters = []
            }
            let state = shared.current
            let waiting = shared.waiters
            return (shared.task, waiting.map { $0.handingOver(state) }, shared.completionWaiters, state)
        }
        task?.cancel()
        for waiter in waiters { waiter.resume(returning: state) }
        for waiter in completionWaiters { waiter.continuation.resume(returning: state) }
        states.finish()
        contents.finish()
        errors.finish()
    }
}

extension LoaderOutlets.Shared {
    /// Takes out the waiters for loads up to `lastSettled`, in ticket order, handing each
    /// `state` (see `Waiter.handingOver(_:)`).
    @inlinable mutating func takeWaiters(
        settledBy lastSettled: LoadID, handing state: ContentLoadingState<Output>
    ) -> (first: LoaderOutlets.Waiter?, others: [LoaderOutlets.Waiter]) {
        let end = waiters.firstIndex { $0.ticket > lastSettled } ?? waiters.endIndex
        guard end > 0 else { return (nil, []) }
        // NB: the usual single waiter is taken out without copying the array, which keeps its
        // storage for the next waiter.
        let first = waiters[0].handingOver(state)
        let others = end > 1 ? waiters[1..<end].map { $0.handingOver(state) } : []
        waiters.removeFirst(end)
        return (first, others)
    }
}
