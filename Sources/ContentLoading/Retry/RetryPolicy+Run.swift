import ContentLoadingSupport

extension RetryPolicy {
    /// Runs `operation`, and again after each transient failure, waiting between attempts,
    /// until it succeeds or ``attempts`` are made, or the next wait would end after the
    /// ``deadline``.
    ///
    /// - Returns: The first successful result.
    /// - Throws: A failure that is not transient, as it is after the first attempt and wrapped
    ///   in ``RetriesExhausted`` after more; the last failure, as ``RetriesExhausted``, when
    ///   every attempt failed; ``RetryDeadlineExceeded`` when the deadline came first;
    ///   `CancellationError` when the task is cancelled, at once, also during a wait (no
    ///   further attempt starts).
    ///
    /// The operation runs on the caller's actor (`isolation`), so main-actor code can pass a
    /// closure that uses its own state.
    public func run<Value>(
        isolation: isolated (any Actor)? = #isolation, _ operation: () async throws -> Value
    ) async throws -> Value {
        guard let deadline else { return try await attempts(operation, until: nil) }
        // NB: a load inside another's deadline keeps the earlier end.
        var end = LoadDeadline(end: .now + deadline, duration: deadline)
        if let outer = LoadDeadline.current, outer.end < end.end { end = outer }
        return try await LoadDeadline.$current.withValue(end) { try await attempts(operation, until: end) }
    }

    private func attempts<Value>(
        isolation: isolated (any Actor)? = #isolation, _ operation: () async throws -> Value,
        until end: LoadDeadline?
    ) async throws -> Value {
        var attempt = 1
        while true {
            do {
                return try await RetryAttempt.$number.withValue(attempt) { try await operation() }
            } catch {
                guard attempt < attempts, isTransient(error), !Task.isCancelled else {
                    throw exhausted(error, attempts: attempt)
                }
                let wait = delay(after: attempt, retryAfter: (error as? any RetryableError)?.retryAfter)
                if let end, ContinuousClock.now + wait >= end.end {
                    throw RetryDeadlineExceeded(deadline: end.duration, attempts: attempt, lastError: error)
                }
                onRetry?(RetryAttempt(attempt: attempt, attempts: attempts, error: error, delay: wait))
                // NB: throws CancellationError when the task is cancelled during the wait; checked
                // again after it, for a cancellation that came as the wait ended (a clock that
                // wakes its sleeper as the cancellation arrives returns normally).
                try await clock.sleep(for: min(wait, .longestSleep))
                try Task.checkCancellation()
                attempt += 1
            }
        }
    }

    /// Whether the policy retries `error`: a ``RetryableError`` that is transient, never a
    /// cancellation.
    public func isTransient(_ error: any Error) -> Bool {
        guard !(error is CancellationError) else { return false }
        return (error as? any RetryableError)?.isTransient ?? false
    }

    /// `error` as the caller gets it after `attempts` attempts.
    private func exhausted(_ error: any Error, attempts: Int) -> any Error {
        guard attempts > 1, !(error is CancellationError) else { return error }
        return RetriesExhausted(attempts: attempts, lastError: error)
    }
}
