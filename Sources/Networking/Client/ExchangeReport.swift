import ContentLoadingSupport
import Foundation

/// One request an ``APIClient`` sent and what came of it, as its ``APIClient/onExchange``
/// handler sees it: for logging, metrics, or an inspector.
///
/// ```swift
/// let client = APIClient(onExchange: { report in logger.debug("\(report)") })
/// // PUT https://api.example.com/contacts/7 → 200, 42 bytes sent, 118 received, 23 ms, attempt 1
/// ```
///
/// It holds nothing secret: the URL is redacted (`Foundation.URL.redactedForDisplay`), and no
/// header or body is kept, only their sizes.
public struct ExchangeReport: Sendable, Hashable, CustomStringConvertible {
    /// The request's method.
    public var method: HTTPMethod
    /// The request's URL, redacted.
    public var url: String
    /// The response's status; `nil` when no response came (see ``failure``) or the transport
    /// has no status (a file).
    public var statusCode: Int?
    /// The bytes of the request's body.
    public var bytesSent: Int
    /// The bytes of the response's body, after decompression; 0 when no response came.
    public var bytesReceived: Int
    /// From handing the request to the transport to its answer (or failure).
    public var duration: Duration
    /// The attempt of the load under a `RetryPolicy`: 1 for the first, and without a policy.
    public var attempt: Int
    /// Whether this exchange sent the request again with renewed credentials, after a `401`
    /// (see ``RequestAdapter``).
    public var isAfterCredentialRefresh: Bool
    /// Why no response came (a timeout, a lost connection, a cancellation), as its message.
    public var failure: String?

    /// Whether the server answered `304 Not Modified`: the copy the caller holds is current.
    public var isNotModified: Bool { statusCode == 304 }

    /// `PUT https://… → 200, 42 bytes sent, 118 received, 23 ms, attempt 1`.
    public var description: String {
        let outcome = failure.map { "failed: \($0)" } ?? statusCode.map { "\($0)" } ?? "answered"
        var text = "\(method) \(url) → \(outcome), \(bytesSent) bytes sent, \(bytesReceived) received, "
        text += "\(Int(duration.seconds * 1_000)) ms, attempt \(attempt)"
        if isAfterCredentialRefresh { text += ", after a credential refresh" }
        return text.escapingControlCharacters
    }
}
