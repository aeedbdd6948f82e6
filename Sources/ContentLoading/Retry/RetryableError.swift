/// An error that says whether trying the same load again may succeed, and how long the
/// server asked to wait first. ``RetryPolicy`` retries only the errors that say they are
/// transient.
///
/// ```swift
/// struct ServiceDown: RetryableError {
///     var isTransient: Bool { true }
///     var retryAfter: Duration? { .seconds(5) }
/// }
/// ```
public protocol RetryableError: Error {
    /// Whether the failure may pass by itself (a timeout, a lost connection, a busy server).
    var isTransient: Bool { get }
    /// How long the server asked to wait before trying again (HTTP `Retry-After`), if it did.
    var retryAfter: Duration? { get }
}

extension RetryableError {
    /// No wait asked for.
    public var retryAfter: Duration? { nil }
}
