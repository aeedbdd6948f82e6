import ContentLoadingSupport

extension LoaderOutlets {
    /// A task awaiting the completion of load `ticket` (see `RefreshHandle.completed()`).
    @usableFromInline struct CompletionWaiter {
        @usableFromInline let ticket: LoadID
        @usableFromInline let key: UInt64
        @usableFromInline let continuation: CheckedContinuation<ContentLoadingState<Output>?, Never>
    }

    /// Waits until load `ticket` has completed and returns the state then; `nil` when the
    /// waiting task is cancelled first.
    ///
    /// NB: a plain continuation, not a parked one: a completion is awaited once per
    /// pull-to-refresh, not on the refresh path the benchmarks measure.
    func waitUntilCompleted(_ ticket: LoadID, isolation: isolated (any Actor)?) async -> ContentLoadingState<Output>? {
        let key = shared.withLock { $0.issueKey() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation(isolation: isolation) { continuation in
                let waiter = CompletionWaiter(ticket: ticket, key: key, continuation: continuation)
                let completed = shared.withLock { shared -> ContentLoadingState<Output>?? in
                    if Task.isCancelled { return .some(nil) }
                    if shared.isShutDown || shared.lastCompleted.map({ ticket <= $0 }) == true {
                        return .some(shared.current)
                    }
                    shared.completionWaiters.append(waiter)
                    return .none
                }
                if let completed { continuation.resume(returning: completed) }
            }
        } onCancel: {
            let waiter = shared.withLock { shared -> CompletionWaiter? in
                guard let index = shared.completionWaiters.firstIndex(where: { $0.key == key }) else { return nil }
                return shared.completionWaiters.remove(at: index)
            }
            waiter?.continuation.resume(returning: nil)
        }
    }
}

extension LoaderOutlets.Shared {
    /// Takes out the completion waiters for loads up to `lastCompleted`, and records it.
    @inlinable mutating func takeCompletionWaiters(
        completedBy lastCompleted: LoadID?
    ) -> [LoaderOutlets.CompletionWaiter] {
        self.lastCompleted = lastCompleted
        guard let lastCompleted, !completionWaiters.isEmpty else { return [] }
        let completed = completionWaiters.filter { $0.ticket <= lastCompleted }
        completionWaiters.removeAll { $0.ticket <= lastCompleted }
        return completed
    }
}
