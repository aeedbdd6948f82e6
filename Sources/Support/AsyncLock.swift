/// A lock that tasks hold across suspension points: one body runs at a time, the others wait
/// their turn in the order they came (no thread is blocked while they wait).
///
/// NB: waiting ignores cancellation: what a body guards (a read-modify-write of one cache key)
/// is short, and a cancelled waiter that skipped its turn would drop a write it was asked for.
package final class AsyncLock: Sendable {
    private let state = Locked<(held: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    package init() {}

    /// Runs `body` when no other body of this lock is running.
    package func withLock<Result: Sendable>(_ body: @Sendable () async throws -> Result) async rethrows -> Result {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        await withCheckedContinuation { continuation in
            let acquired = state.withLock { state in
                if state.held {
                    state.waiters.append(continuation)
                    return false
                }
                state.held = true
                return true
            }
            if acquired { continuation.resume() }
        }
    }

    private func release() {
        // NB: the lock passes straight to the next waiter (it stays held), resumed outside the
        // lock.
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiters.isEmpty else {
                state.held = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
