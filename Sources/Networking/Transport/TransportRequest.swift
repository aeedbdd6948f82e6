import ContentLoading
import Foundation

/// What a ``Transport`` is asked to send: a method, a URL, headers and a body and, for a
/// revalidation, the validators of the copy the caller holds.
///
/// ```swift
/// let read = TransportRequest(url: url)
/// let write = TransportRequest(method: .put, url: url, headers: ["Content-Type": "application/json"], body: json)
/// ```
///
/// Its description names the method and the URL with credentials removed, and never prints a
/// secret header's value (``secretHeaderNames``). An HTTP transport sends the secret headers to
/// the request's origin alone: a redirect to another scheme, host or port is followed without
/// them.
public struct TransportRequest: Sendable, Hashable {
    /// The method. Defaults to `GET`.
    public var method: HTTPMethod
    /// The URL to load.
    public var url: URL
    /// Headers sent with the request, beside the ones the transport sets (an HTTP transport
    /// sends `Accept: application/json` unless this has an `Accept`).
    public var headers: [String: String]
    /// The body, or `nil` for none.
    public var body: Data?
    /// The validators of the caller's copy, sent as `If-None-Match` and `If-Modified-Since`
    /// by an HTTP transport (a server whose resource has not changed answers 304); ignored by
    /// transports without validators. `Validators.none` for an unconditional load.
    public var validators: Validators
    /// The names of further headers whose values are never printed nor follow a redirect to
    /// another origin, beside ``secretHeaderNames`` (in any case): an API key sent under a name
    /// of the app's own. An ``APIClient`` adds its adapter's ``RequestAdapter/secretHeaderNames``.
    public var secretHeaders: Set<String> = []

    /// Creates a request.
    public init(
        method: HTTPMethod = .get, url: URL, headers: [String: String] = [:], body: Data? = nil,
        validators: Validators = .none
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.validators = validators
    }

    /// Creates a `GET` request.
    public init(url: URL, validators: Validators = .none) {
        self.init(method: .get, url: url, validators: validators)
    }
}
