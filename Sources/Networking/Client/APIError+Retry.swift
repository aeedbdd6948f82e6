import ContentLoading

extension APIError: RetryableError {
    /// The HTTP statuses worth trying again: request timeout, too many requests, and the
    /// server errors that pass (internal error, bad gateway, unavailable, gateway timeout).
    public static let transientStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]

    /// Whether trying again may succeed: a timeout, a deadline, a failed or lost connection,
    /// or one of the ``transientStatuses``. Never a 4xx such as 400, 401, 403 or 404, a
    /// conflict, a missing file or a decoding failure, nor any failure of a request that is not
    /// safe to send twice (a `POST` or `PATCH` without an idempotency key).
    public var isTransient: Bool {
        switch self {
        case .timedOut, .deadlineExceeded, .transport: true
        case .httpStatus(_, let status, _, _): Self.transientStatuses.contains(status)
        case .request(_, let isRepeatable, let failure): isRepeatable && failure.isTransient
        default: false
        }
    }

    /// How long the server asked to wait (`Retry-After` on a 429 or 503, say).
    public var retryAfter: Duration? {
        if case .httpStatus(_, _, _, let retryAfter) = failure { retryAfter } else { nil }
    }
}
