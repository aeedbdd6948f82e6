/// A load that a ``RetryPolicy`` gave up on at its ``RetryPolicy/deadline``: the next wait
/// would have ended after it.
///
/// Its message says so, with the last attempt's error:
/// `gave up after 2 attempts at the deadline of 3 s; the last failed with: HTTP 503 from …`.
public struct RetryDeadlineExceeded: Error, Sendable, CustomStringConvertible {
    /// The policy's deadline.
    public let deadline: Duration
    /// How many attempts were made.
    public let attempts: Int
    /// The last attempt's error.
    public let lastError: any Error

    /// What happened, and the last error's message.
    public var description: String {
        let tried = attempts == 1 ? "1 attempt" : "\(attempts) attempts"
        return "gave up after \(tried) at the deadline of \(deadline); the last failed with: \(lastError)"
    }
}

/// The end of the load the current task runs under a ``RetryPolicy`` with a deadline: the
/// http(s) transport ends an attempt still running then.
package struct LoadDeadline: Sendable {
    /// When the load must have ended.
    package let end: ContinuousClock.Instant
    /// The policy's deadline, for messages.
    package let duration: Duration

    /// The deadline of the load the current task runs, if it has one.
    @TaskLocal package static var current: LoadDeadline?
}
