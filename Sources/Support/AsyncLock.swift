/// A lock that tasks hold across suspension points: one body runs at a time, the others wait
/// their turn in the order they came (no thread is blocked while they wait).
///
/// NB: waiting ignores cancellation: what a body guards (a read-modify-write of one cache key,
/// a disk write waiting for another connection's lock) is short, and a cancelled waiter that
/// skipped its turn would drop a write it was asked for.
package final class AsyncLock: Sendable {
    private let state = Locked<(held: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    package init() {}

    /// Runs `body` when no other body of this lock is running.
    package func withLock<Result: Sendable>(_ body: @Sendable () async throws -> Result) async rethrows -> Result {
        await lock()
        defer { unlock() }
        return try await body()
    }

    /// Takes the lock once every holder and waiter before this one has had it; at once, without
    /// a suspension, when it is free. It runs on the caller's actor, so an actor can hold it
    /// around isolated work (end it with ``unlock()``).
    nonisolated(nonsending) package func lock() async {
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

    /// Gives the lock to the task that has waited longest, or frees it.
    package func unlock() {
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

    /// Whether the lock is held, and how many tasks wait for it: what a test can see of a
    /// task that waits, which sends no signal of its own.
    package var queue: (isHeld: Bool, waiting: Int) { state.withLock { ($0.held, $0.waiters.count) } }
}
