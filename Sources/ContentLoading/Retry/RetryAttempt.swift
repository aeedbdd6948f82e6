/// A failed attempt that a ``RetryPolicy`` is about to retry, as its
/// ``RetryPolicy/onRetry(_:)`` handler sees it.
public struct RetryAttempt: Sendable {
    /// The attempt that failed: 1 for the first.
    public let attempt: Int
    /// The most attempts the policy makes.
    public let attempts: Int
    /// Why it failed.
    public let error: any Error
    /// How long the policy waits before the next attempt.
    public let delay: Duration
}

extension RetryAttempt {
    /// The number of the attempt the current task runs under a ``RetryPolicy``: 1 for the
    /// first, and outside any policy.
    @TaskLocal package static var number = 1
}
