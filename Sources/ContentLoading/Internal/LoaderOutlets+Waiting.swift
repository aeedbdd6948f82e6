import ContentLoadingSupport

extension LoaderOutlets {
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
            if isolation === MainActor.shared { return await waitParked(ticket, key: key, isolation: isolation) }
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

    /// `waitUntilSettled` on the main actor: the waiting task parks on a spot (the outlets' idle
    /// one, when no other task uses it) and takes the state it goes on with from the outlets.
    @inlinable func waitParked(
        _ ticket: LoadID, key: UInt64, isolation: isolated (any Actor)?
    ) async -> ContentLoadingState<Output>? {
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
}
