import ContentLoadingSupport

/// Everything a ``ContentLoadingViewModel`` hands out or runs that must be reachable from its
/// nonisolated `deinit`: the running task, the streams, and the refresh handles waiting to
/// settle.
@usableFromInline package final class LoaderOutlets<Output: Sendable>: Sendable {
    /// A task awaiting the settlement of load `ticket`.
    @usableFromInline struct Waiter {
        /// How the waiting task goes on.
        @usableFromInline enum Resumption {
            /// A task on the main actor, where the model publishes, parked so that its
            /// resumption wakes no thread (see `ParkingSpot`).
            case parked(ParkingSpot)
            /// A task on any other actor, or none.
            case continuation(UnsafeContinuation<ContentLoadingState<Output>?, Never>)
        }

        @usableFromInline let ticket: LoadID
        @usableFromInline let key: UInt64
        @usableFromInline let resumption: Resumption

        @inlinable init(ticket: LoadID, key: UInt64, resumption: Resumption) {
            self.ticket = ticket
            self.key = key
            self.resumption = resumption
        }

        /// Whether the waiting task goes on on the main actor.
        @inlinable var isOnMainActor: Bool {
            if case .parked = resumption { true } else { false }
        }

        /// Lets the waiting task go on with `state`; call it exactly once, after taking the
        /// waiter out of `outlets`, outside its lock.
        @inlinable func resume(returning state: ContentLoadingState<Output>?, in outlets: LoaderOutlets) {
            switch resumption {
            case .parked(let spot):
                outlets.shared.withLock { _ = $0.parkedResults.updateValue(state, forKey: key) }
                spot.release()
            case .continuation(let continuation):
                continuation.resume(returning: state)
            }
        }
    }

    @usableFromInline struct Shared {
        @usableFromInline var task: Task<Void, Never>?
        @usableFromInline var waiters: [Waiter] = []
        @usableFromInline var nextWaiterKey: UInt64 = 0
        @usableFromInline var current: ContentLoadingState<Output> = .unloaded
        @usableFromInline var lastSettled: LoadID?
        @usableFromInline var isShutDown = false
        /// What each released parked waiter goes on with, by key, until it takes it.
        @usableFromInline var parkedResults: [UInt64: ContentLoadingState<Output>?] = [:]
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

    /// Waits until load `ticket` has settled and returns the state then; `nil` when the
    /// waiting task is cancelled first.
    @inlinable func waitUntilSettled(
        _ ticket: LoadID, isolation: isolated (any Actor)?
    ) async -> ContentLoadingState<Output>? {
        let key = shared.withLock { shared in
            defer { shared.nextWaiterKey += 1 }
            return shared.nextWaiterKey
        }
        return await withTaskCancellationHandler {
            if isolation === MainActor.shared {
                let spot = shared.withLock { $0.idleSpot.take() } ?? ParkingSpot()
                if let settled = register(Waiter(ticket: ticket, key: key, resumption: .parked(spot))) {
                    shared.withLock { $0.idleSpot = spot }
                    return settled
                }
                await spot.wait(isolation: isolation)
                return shared.withLock { shared in
                    shared.idleSpot = spot
                    guard let state = shared.parkedResults.removeValue(forKey: key) else {
                        preconditionFailure("a parked refresh waiter went on without its state")
                    }
                    return state
                }
            }
            // NB: unsafe (no checking object to allocate): every path resumes it exactly once,
            // under the lock that removes it from `waiters`. Naming `isolation` keeps this
            // closure on the caller's actor; without it the closure is nonisolated, and
            // registering the waiter hopped to the global executor and back (a thread
            // hand-off on every awaited refresh).
            return await withUnsafeContinuation(isolation: isolation) { continuation in
                if let settled = register(Waiter(ticket: ticket, key: key, resumption: .continuation(continuation))) {
                    continuation.resume(returning: settled)
                }
            }
        } onCancel: {
            let waiter: Waiter? = shared.withLock { shared in
                guard let index = shared.waiters.firstIndex(where: { $0.key == key }) else { return nil }
                return shared.waiters.remove(at: index)
            }
            waiter?.resume(returning: nil, in: self)
        }
    }

    /// Adds `waiter` to the waiting tasks, unless its load has settled (or the outlets shut
    /// down), which returns the state to go on with, or its task is cancelled, which returns
    /// `.some(nil)`.
    @inlinable func register(_ waiter: Waiter) -> ContentLoadingState<Output>?? {
        shared.withLock { shared in
            if shared.isShutDown || shared.lastSettled.map({ waiter.ticket <= $0 }) == true {
                return .some(shared.current)
            }
            if Task.isCancelled { return .some(nil) }
            // NB: kept sorted by ticket, so settling removes a prefix.
            let index = shared.waiters.lastIndex { $0.ticket <= waiter.ticket }.map { $0 + 1 } ?? 0
            shared.waiters.insert(waiter, at: index)
            return .none
        }
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
        let settled = shared.withLock { $0.takeWaiters(settledBy: lastSettled, mainActorOnly: true) }
        settled.first?.resume(returning: state, in: self)
        for waiter in settled.others { waiter.resume(returning: state, in: self) }
    }

    /// Records `state` and settles every refresh served by a load up to `lastSettled`.
    @inlinable package func publish(_ state: ContentLoadingState<Output>, lastSettled: LoadID?) {
        let settled: (first: Waiter?, others: [Waiter]) = shared.withLock { shared in
            shared.current = state
            shared.lastSettled = lastSettled
            guard let lastSettled else { return (nil, []) }
            return shared.takeWaiters(settledBy: lastSettled, mainActorOnly: false)
        }
        // NB: resumed outside the lock: nothing the kit holds a lock for may call out (a
        // resumption can wait for the waiting task's status lock, which its cancellation
        // handler holds while it waits for ours).
        settled.first?.resume(returning: state, in: self)
        for waiter in settled.others { waiter.resume(returning: state, in: self) }
    }

    /// Cancels the running task, finishes every stream and settles every waiting refresh.
    package func shutDown() {
        let (task, waiters, state) = shared.withLock { shared in
            shared.isShutDown = true
            defer {
                shared.task = nil
                shared.waiters = []
            }
            return (shared.task, shared.waiters, shared.current)
        }
        task?.cancel()
        for waiter in waiters { waiter.resume(returning: state, in: self) }
        states.finish()
        contents.finish()
        errors.finish()
    }
}

extension LoaderOutlets.Shared {
    /// Takes out the waiters for loads up to `lastSettled` (only those on the main actor when
    /// `mainActorOnly`), in ticket order.
    @inlinable mutating func takeWaiters(
        settledBy lastSettled: LoadID, mainActorOnly: Bool
    ) -> (first: LoaderOutlets.Waiter?, others: [LoaderOutlets.Waiter]) {
        let end = waiters.firstIndex { $0.ticket > lastSettled } ?? waiters.endIndex
        guard end > 0 else { return (nil, []) }
        if mainActorOnly {
            let onMainActor = waiters[..<end].lazy.filter(\.isOnMainActor).count
            guard onMainActor > 0 else { return (nil, []) }
            if onMainActor < end {
                // NB: waiters on several actors at once, which is rare; the others stay, in order.
                let settled = Array(waiters[..<end])
                let taken = settled.filter(\.isOnMainActor)
                waiters.replaceSubrange(..<end, with: settled.filter { !$0.isOnMainActor })
                return (taken.first, Array(taken.dropFirst()))
            }
        }
        // NB: the usual single waiter is taken out without copying the array, which keeps its
        // storage for the next waiter.
        let first = waiters[0]
        let others = end > 1 ? Array(waiters[1..<end]) : []
        waiters.removeFirst(end)
        return (first, others)
    }
}
