import ContentLoadingSupport

/// How a failed load is tried again: how many attempts, how long to wait between them
/// (exponential backoff with jitter, on an injected clock), and which failures are worth it.
///
/// Only transient failures are retried: an error that conforms to ``RetryableError`` and says
/// it ``RetryableError/isTransient`` (the networking module's `APIError` does for timeouts,
/// connection failures and HTTP 408, 429, 500, 502, 503 and 504). A cancellation, a 4xx such
/// as 404 and a decoding error are never retried. A server's `Retry-After`
/// (``RetryableError/retryAfter``) is waited at least, up to ``maximumDelay``.
///
/// ```swift
/// let retry = RetryPolicy(attempts: 4, initialDelay: .milliseconds(500))
/// let model = ContentLoadingViewModel<Void, [Contact]>(retry: retry) { try await api.contacts() }
/// let contacts = KeyedRepository<String, [Contact]>(retry: retry) { try await api.contacts(seller: $0) }
/// ```
///
/// While it retries, a view model stays `loading` with its content kept; only the last
/// attempt's failure becomes its error state, as ``RetriesExhausted`` (which says how many
/// attempts were made). Cancelling the load during a wait ends it at once: no further
/// attempt starts. Tests inject a manual clock and advance it by hand.
///
/// A ``deadline`` bounds the whole load, every attempt and wait together: no wait runs past
/// it (the load ends with ``RetryDeadlineExceeded`` instead), and the kit's http(s) transport
/// ends an attempt that is still running when it passes.
public struct RetryPolicy: Sendable {
    /// The most attempts, the first included (1: never retry; a number below 1 makes one
    /// attempt too).
    public var attempts: Int
    /// The wait before the first retry, before jitter.
    public var initialDelay: Duration
    /// How much longer each wait is than the one before.
    public var multiplier: Double
    /// The longest wait, a server's `Retry-After` included.
    public var maximumDelay: Duration
    /// How each wait is randomised, so that many clients do not retry in step.
    public var jitter: RetryJitter
    /// The clock the waits are measured on.
    public var clock: any Clock<Duration>
    /// A random number in `0...1` for the jitter.
    public var random: @Sendable () -> Double
    /// Called before each wait, with the attempt that failed and how long the wait is.
    public var onRetry: (@Sendable (RetryAttempt) -> Void)?
    /// The longest the whole load may take, every attempt and wait together, in real time;
    /// `nil` for no limit but each attempt's own.
    public var deadline: Duration?

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - attempts: The most attempts, the first included. Defaults to 3. A number below 1
    ///     is 1: the load is tried once.
    ///   - initialDelay: The wait before the first retry. Defaults to 1 second.
    ///   - multiplier: How much longer each wait is than the one before. Defaults to 2.
    ///   - maximumDelay: The longest wait. Defaults to 30 seconds.
    ///   - jitter: How each wait is randomised. Defaults to ``RetryJitter/full``.
    ///   - clock: The clock the waits are measured on. Defaults to `ContinuousClock`.
    ///   - random: A random number in `0...1`. Defaults to the system generator.
    ///   - deadline: The longest the whole load may take, attempts and waits together.
    ///     Defaults to `nil`: no limit but each attempt's own.
    public init(
        attempts: Int = 3,
        initialDelay: Duration = .seconds(1),
        multiplier: Double = 2,
        maximumDelay: Duration = .seconds(30),
        jitter: RetryJitter = .full,
        clock: any Clock<Duration> = ContinuousClock(),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) },
        deadline: Duration? = nil
    ) {
        // NB: `max`, not a precondition: an app's setting of 0 ("no retries") stopped the
        // process, though a policy whose `attempts` is set to 0 later made one attempt.
        self.attempts = max(attempts, 1)
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maximumDelay = maximumDelay
        self.jitter = jitter
        self.clock = clock
        self.random = random
        self.deadline = deadline
    }

    /// One attempt, never retried.
    public static var never: RetryPolicy { RetryPolicy(attempts: 1) }

    /// The same policy, calling `handler` before each wait (to show the attempts as they happen).
    public func onRetry(_ handler: @escaping @Sendable (RetryAttempt) -> Void) -> RetryPolicy {
        var policy = self
        policy.onRetry = handler
        return policy
    }

    /// The wait after failed attempt `attempt` (1 for the first), before jitter: the initial
    /// delay times the multiplier for each attempt since, at most ``maximumDelay``. A negative
    /// delay or product is no wait, and a negative ``maximumDelay`` caps every wait at zero.
    public func backoff(after attempt: Int) -> Duration {
        let cap = max(maximumDelay, .zero)
        var delay = min(max(initialDelay, .zero), cap)
        for _ in 1..<max(1, attempt) where delay < cap {
            // NB: checked in floating point first: a product past the cap (a multiplier too
            // large, infinite or not a number) is the cap, and one below zero (a negative
            // multiplier) is no wait, where Duration's integer arithmetic would trap.
            let product = delay.seconds * multiplier
            guard product.isFinite, product < cap.seconds else { return cap }
            delay = product > 0 ? delay * multiplier : .zero
        }
        return delay
    }

    /// The wait after failed attempt `attempt` whose error asked for `retryAfter`: the backoff
    /// with jitter, but at least `retryAfter`, and at most ``maximumDelay``.
    public func delay(after attempt: Int, retryAfter: Duration?) -> Duration {
        let jittered = jitter.apply(to: backoff(after: attempt), random: min(1, max(0, random())))
        return min(max(jittered, retryAfter ?? .zero), max(maximumDelay, .zero))
    }
}
