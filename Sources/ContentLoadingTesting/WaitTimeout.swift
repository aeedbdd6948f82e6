/// A wait of the testing tools that ran out of time: what it waited for never happened.
///
/// ``ControlledLoader/call(_:timeout:)``, ``ManualClock/waitForSleepers(_:timeout:)`` and
/// `RefreshHandle.settled(timeout:)` throw it, so a load that never starts, a sleep that never
/// begins or a refresh that never settles fails the test with a message instead of hanging the
/// suite. Its description names what was awaited and what there was when the wait gave up.
///
/// ```swift
/// let call = try await loader.call(1)
/// // throws WaitTimeout: waited 60.0 seconds for call 1 of ControlledLoader<String, Array<Int>>; 1 call made: 0 "a"
/// ```
public struct WaitTimeout: Error, CustomStringConvertible {
    /// How long a wait lasts by default: 60 seconds, as the recorders' waits.
    ///
    /// Swift Testing starts a suite's tests at once, so a wait also lasts while the test waits
    /// its turn on the machine's cores (and a main-actor test, for the main thread): in a run
    /// of 800 tests on two busy cores, a wait of 20 seconds, the default before, ran out with
    /// nothing wrong. A wait that never ends still fails the test, a minute later.
    public static var defaultTimeout: Duration { .seconds(60) }

    /// What the wait was for, and what there was when it gave up.
    public let awaited: String
    /// How long it waited.
    public let timeout: Duration

    /// Creates the error of a wait for `awaited` that gave up after `timeout`.
    public init(awaited: String, timeout: Duration) {
        self.awaited = awaited
        self.timeout = timeout
    }

    /// "waited 60.0 seconds for …".
    public var description: String { "waited \(timeout) for \(awaited)" }
}

/// Runs `wait` until it returns, or until `timeout` passes, which cancels it and throws a
/// ``WaitTimeout`` naming what was awaited (`awaited`, read when the time is up).
///
/// `wait` must end soon after its task is cancelled (returning or throwing); every wait the
/// testing tools time this way does.
func withTimeout<Value: Sendable>(
    _ timeout: Duration, awaiting awaited: @escaping @Sendable () -> String,
    _ wait: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withThrowingTaskGroup(of: Value?.self) { group in
        group.addTask { try await wait() }
        group.addTask {
            // NB: a cancelled sleep (the wait ended first) ends this task with nothing.
            guard (try? await Task.sleep(for: timeout)) != nil else { return nil }
            throw WaitTimeout(awaited: awaited(), timeout: timeout)
        }
        defer { group.cancelAll() }
        // NB: the first task to finish decides; a timer cancelled by the wait's end gives nil.
        while let result = try await group.next() {
            if let value = result { return value }
        }
        throw CancellationError()
    }
}
