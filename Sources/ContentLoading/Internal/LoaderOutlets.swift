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
        @usableFromInline var isShutDown = false
        /// What each released parked waiter goes on with, by key, until it takes it.
        ///
        /// NB: an array, searched, rather than a dictionary: it rarely holds more than one.
        @usableFromInline var parkedResults: [(key: UInt64, state: ContentLoadingState<Output>?)] = []
        /// A parking spot no task is using, kept for the next waiter on the main actor.
        @usableFromInline var idleSpot: ParkingSpot?
    }

    @usableFromInline package let states = Broadcast<ContentLoadingState<Output>>()
    @usableFromInline package let contents = Broadcast<Output?>()
    @usableFromInline package let errors = Broadcast<any Error>()
    @usableFromInline let shared = Locked(Shared())

    package init() {}

    /// The state last published.
    @inlinable package var current: ContentLoadingState<Output> { shared.withLock { $0.current } }

    /// Makes `task` the running task, cancelling the one it replaces.
    @inlinable package func replaceTask(with task: Task<Void, Never>?) {
        let previous = shared.withLock { shared in
            defer { shared.task = task }
            return shared.task
        }
        previous?.cancel()
    }

    /// Lets go of the running task, which has ended, without cancelling it.
    @inlinable package func releaseEndedTask() {
        let ended = shared.withLock { shared in
            defer { shared.task = nil }
            return shared.task
        }
        _ = consume ended  // NB: released outside the lock.
    }

    /// A handle for a refresh served by load `ticket`.
    @inlinable package func handle(ticket: LoadID, model: any AnyObject & Sendable) -> RefreshHandle<Output> {
        RefreshHandle(ticket: ticket, outlets: self, model: model)
    }

    /// Whether load `ticket` has settled.
    @inlinable func hasSettled(_ ticket: LoadID) -> Bool {
        shared.withLock { $0.isShutDown || $0.lastSettled.map { ticket <= $0 } == true }
    }

    /// Settles the refreshes awaited on the main actor that a load up to `lastSettled` serves,
    /// before the model publishes `state`; call it on the main actor.
    ///
    /// NB: such a waiter is parked, and its release queues it on the main queue, behind the
    /// main-actor job that publishes; so it still finds Observation, `stateDidChange` and the
    /// streams done, and it goes on with the state its load settled in even when
    /// `stateDidChange` starts another load before the publishing ends.
    @inlinable package func settleMainActorWaiters(in state: ContentLoadingState<Output>, lastSettled: LoadID?) {
        guard let lastSettled else { return }
        resume(
            shared.withLock { $0.takeWaiters(settledBy: lastSettled, mainActorOnly: true, handing: state) }, with: state
        )
    }

    /// Records `state` and settles every refresh served by a load up to `lastSettled`.
    @inlinable package func publish(_ state: ContentLoadingState<Output>, lastSettled: LoadID?) {
        let settled: (first: Waiter?, others: [Waiter]) = shared.withLock { shared in
            shared.current = state
            shared.lastSettled = lastSettled
            guard let lastSettled else { return (nil, []) }
            return shared.takeWaiters(settledBy: lastSettled, mainActorOnly: false, handing: state)
        }
        resume(settled, with: state)
    }

    /// Resumes waiters taken out by `Shared.takeWaiters`.
    ///
    /// NB: outside the lock: nothing the kit holds a lock for may call out (a resumption can
    /// wait for the waiting task's status lock, which its cancellation handler holds while it
    /// waits for ours).
    @inlinable func resume(_ settled: (first: Waiter?, others: [Waiter]), with state: ContentLoadingState<Output>) {
        settled.first?.resume(returning: state)
        for waiter in settled.others { waiter.resume(returning: state) }
    }

    /// Cancels the running task, finishes every stream and settles every waiting refresh.
    package func shutDown() {
        let (task, waiters, state) = shared.withLock { shared in
            shared.isShutDown = true
            defer {
                shared.task = nil
                shared.waiters = []
            }
            let state = shared.current
            let waiting = shared.waiters
            return (shared.task, waiting.map { shared.handOver(state, to: $0) }, state)
        }
        task?.cancel()
        for waiter in waiters { waiter.resume(returning: state) }
        states.finish()
        contents.finish()
        errors.finish()
    }
}

extension LoaderOutlets.Shared {
    /// Takes out the waiters for loads up to `lastSettled` (only those on the main actor when
    /// `mainActorOnly`), in ticket order, handing each `state` (see `handOver(_:to:)`).
    @inlinable mutating func takeWaiters(
        settledBy lastSettled: LoadID, mainActorOnly: Bool, handing state: ContentLoadingState<Output>
    ) -> (first: LoaderOutlets.Waiter?, others: [LoaderOutlets.Waiter]) {
        let end = waiters.firstIndex { $0.ticket > lastSettled } ?? waiters.endIndex
        guard end > 0 else { return (nil, []) }
        if mainActorOnly {
            let onMainActor = waiters[..<end].lazy.filter(\.isOnMainActor).count
            guard onMainActor > 0 else { return (nil, []) }
            if onMainActor < end {
                // NB: waiters on several actors at once, which is rare; the others stay, in order.
                let settled = Array(waiters[..<end])
                let taken = settled.filter(\.isOnMainActor).map { handOver(state, to: $0) }
                waiters.replaceSubrange(..<end, with: settled.filter { !$0.isOnMainActor })
                return (taken.first, Array(taken.dropFirst()))
            }
        }
        // NB: the usual single waiter is taken out without copying the array, which keeps its
        // storage for the next waiter.
        let first = handOver(state, to: waiters[0])
        let others = end > 1 ? waiters[1..<end].map { handOver(state, to: $0) } : []
        waiters.removeFirst(end)
        return (first, others)
    }
}
