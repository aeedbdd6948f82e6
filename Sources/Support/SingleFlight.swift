/// Runs at most one operation at a time; callers that arrive while it runs share its result.
///
/// The in-flight task is created and cleared under a lock, so two callers can never start
/// two operations. A caller whose task is cancelled still waits for the shared operation,
/// which is not cancelled on its behalf: other callers depend on it.
package final class SingleFlight<Value: Sendable>: Sendable {
    private let running = Locked<Task<Value, any Error>?>(nil)
    private let callers = Locked(0)

    package init() {}

    /// The result of the operation in flight, or of `operation` started now when none is.
    package func run(_ operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let task = running.withLock { running -> Task<Value, any Error> in
            if let running { return running }
            let task = Task { [running = self.running] in
                let result = await Result(catching: operation)
                // NB: only this task can be the one in flight, so clearing is always right.
                running.withLock { $0 = nil }
                return try result.get()
            }
            running = task
            return task
        }
        callers.withLock { $0 += 1 }
        defer { callers.withLock { $0 -= 1 } }
        return try await task.value
    }

    /// Waits until the operation in flight, if any, has ended; starts none.
    package func waitUntilIdle() async {
        if let task = running.withLock({ $0 }) { _ = try? await task.value }
    }

    /// How many callers are waiting for the operation in flight (for tests that must know
    /// every caller joined before letting it finish).
    package var waitingCallers: Int { callers.withLock { $0 } }

    /// Whether an operation is in flight.
    package var isRunning: Bool { running.withLock { $0 != nil } }
}

extension Result where Failure == any Error {
    /// The result of `body`, success or failure.
    package init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
