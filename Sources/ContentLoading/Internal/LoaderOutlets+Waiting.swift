import ContentLoadingSupport

extension LoaderOutlets {
    /// A task awaiting the settlement of load `ticket`.
    @usableFromInline struct Waiter {
        /// How the waiting task goes on.
        @usableFromInline enum Resumption {
            /// A task on the main actor, where the model publishes, parked so that its
            /// resumption wakes no thread (see `ParkingSpot`).
            case parked(ParkedWaiter<Output>)
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

        /// Keeps `state` for the waiting task if it is parked (a parked task takes the state
        /// it goes on with from its `ParkedWaiter`); call it under the lock that takes the
        /// waiter out. Returns the waiter, to resume outside the lock.
        @inlinable func handingOver(_ state: ContentLoadingState<Output>?) -> Self {
            if case .parked(let parked) = resumption { parked.state = .some(state) }
            return self
        }

        /// Lets the waiting task go on with `state`; call it exactly once, outside the lock,
        /// after taking the waiter out with `handingOver(_:)`.
        @inlinable func resume(returning state: ContentLoadingState<Output>?) {
            switch resumption {
            case .parked(let parked): parked.spot.release()
            case .continuation(let continuation): continuation.resume(returning: state)
            }
        }
    }

    /// Waits until load `ticket` has settled and returns the state then; `nil` when the
    /// waiting task is cancelled first.
    @inlinable @inline(__always) func waitUntilSettled(
        _ ticket: LoadID, isolation: isolated (any Actor)?
    ) async -> ContentLoadingState<Output>? {
        if ParkingSpot.parks(on: isolation) { return await waitParked(ticket, isolation: isolation) }
        let key = shared.withLock { $0.issueKey() }
        return await withTaskCancellationHandler {
            // NB: unsafe (no checking object to allocate): every path resumes it exactly once,
            // after taking it out of `waiters` under the lock. Naming `isolation` keeps this
            // closure on the caller's actor; without it the closure is nonisolated, and
            // registering the waiter hopped to the global executor and back (a thread
            // hand-off on every awaited refresh).
            await withUnsafeContinuation(isolation: isolation) { continuation in
                let waiter = Waiter(ticket: ticket, key: key, resumption: .continuation(continuation))
                // NB: the cancellation check is under the lock: a task cancelled after it ran
                // finds its waiter when the handler, which runs after the flag is set, takes
                // the lock.
                let settled = shared.withLock { shared in Task.isCancelled ? .some(nil) : shared.add(waiter) }
                if let settled { continuation.resume(returning: settled) }
            }
        } onCancel: {
            cancelWaiter(key)
        }
    }

    /// `waitUntilSettled` on the main actor: the waiting task parks on a spot and takes the
    /// state it goes on with from its `ParkedWaiter` (the outlets' idle one, when no other
    /// task uses it).
    ///
    /// NB: the waiter is registered (under one lock) before the cancellation handler is
    /// installed; a task cancelled in between runs the handler at once, which releases the spot
    /// before the task parks, so it goes through.
    @inlinable @inline(__always) func waitParked(_ ticket: LoadID, isolation: isolated (any Actor)?) async
        -> ContentLoadingState<Output>?
    {
        let (parked, key, settled) = shared.withLock { shared in
            let parked = shared.idleParkedWaiter.take() ?? ParkedWaiter()
            let key = shared.issueKey()
            let settled = shared.add(Waiter(ticket: ticket, key: key, resumption: .parked(parked)))
            if settled != nil { shared.idleParkedWaiter = parked }
            return (parked, key, settled)
        }
        if let settled { return settled }
        await withTaskCancellationHandler {
            await parked.spot.wait(isolation: isolation)
        } onCancel: {
            cancelWaiter(key)
        }
        guard let state = parked.state.take() else {
            preconditionFailure("a parked refresh waiter went on without its state")
        }
        shared.withLock { $0.idleParkedWaiter = parked }
        return state
    }

    /// Lets the waiter `key` go on with `nil`, if it still waits: its task was cancelled.
    @inlinable func cancelWaiter(_ key: UInt64) {
        let waiter: Waiter? = shared.withLock { shared in
            guard let index = shared.waiters.firstIndex(where: { $0.key == key }) else { return nil }
            return shared.waiters.remove(at: index).handingOver(nil)
        }
        waiter?.resume(returning: nil)
    }
}

extension LoaderOutlets.Shared {
    /// A key for a new waiter.
    @inlinable mutating func issueKey() -> UInt64 {
        defer { nextWaiterKey += 1 }
        return nextWaiterKey
    }

    /// Adds `waiter` to the waiting tasks, unless its load has settled (or the outlets shut
    /// down), which returns the state to go on with.
    @inlinable mutating func add(_ waiter: LoaderOutlets.Waiter) -> ContentLoadingState<Output>?? {
        if isShutDown { return .some(current) }
        if lastSettled.map({ waiter.ticket <= $0 }) == true { return .some(settledState ?? current) }
        // NB: kept sorted by ticket, so settling removes a prefix.
        let index = waiters.lastIndex { $0.ticket <= waiter.ticket }.map { $0 + 1 } ?? 0
        waiters.insert(waiter, at: index)
        return .none
    }
}
