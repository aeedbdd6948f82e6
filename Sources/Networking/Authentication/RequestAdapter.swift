import Foundation

/// Adds credentials to every request an ``APIClient`` sends, and renews them when the server
/// refuses them.
///
/// The client asks the adapter to ``adapt(_:)`` each request just before it is sent, every
/// attempt again (so a retry carries the credentials current at that moment). When the server
/// answers `401 Unauthorized`, the client calls ``refreshCredentials()`` **once** for all the
/// requests refused with the same credentials (the others wait for that refresh), then sends
/// each of them once more; a second `401` is the request's error. A request cancelled while
/// the refresh runs, or whose load reaches its `RetryPolicy` deadline then, stops waiting at
/// once; the refresh goes on for the others.
///
/// ```swift
/// struct BearerAuth: RequestAdapter {
///     let tokens: TokenStore                      // an actor of your own
///     func adapt(_ request: TransportRequest) async throws -> TransportRequest {
///         var request = request
///         request.headers["Authorization"] = "Bearer \(await tokens.current)"
///         return request
///     }
///     func refreshCredentials() async throws -> Bool {
///         try await tokens.renew()                // throws: every waiting request fails with it
///         return true
///     }
/// }
/// let client = APIClient(adapter: BearerAuth(tokens: tokens))
/// ```
///
/// `Authorization`, `Cookie` and the other ``TransportRequest/secretHeaderNames`` are never
/// printed, and go to the request's origin alone: a redirect to another scheme, host or port
/// is followed without them. An adapter that sends a credential under another name lists it
/// in ``secretHeaderNames``.
public protocol RequestAdapter: Sendable {
    /// The names of the headers this adapter adds whose values must never be printed nor
    /// follow a redirect to another origin, beside ``TransportRequest/secretHeaderNames``.
    /// Defaults to none.
    var secretHeaderNames: Set<String> { get }

    /// Returns `request` with the credentials added. Throwing fails the request with the error.
    func adapt(_ request: TransportRequest) async throws -> TransportRequest

    /// Renews the credentials after the server refused them with a `401`, and returns whether
    /// it did (`false`: the `401` stands). Never called twice at once by one client. Throwing
    /// fails every request waiting for the refresh with the error. Defaults to `false`.
    func refreshCredentials() async throws -> Bool
}

extension RequestAdapter {
    /// No header beside ``TransportRequest/secretHeaderNames`` is secret.
    public var secretHeaderNames: Set<String> { [] }

    /// Credentials that cannot be renewed: a `401` stands.
    public func refreshCredentials() async throws -> Bool { false }
}
