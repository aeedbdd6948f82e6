import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends a request and returns the bytes of the answer: the one piece of I/O an ``APIClient``
/// depends on.
///
/// A transport is a `Sendable` struct of one closure, so an app can plug in its own networking
/// library and a test can serve canned data from memory. The named variants:
///
/// - ``standard(limits:configuration:)``: `file://` from the file system, `http(s)://` through `URLSession`.
/// - ``fileSystem(maximumBodySize:)``: `file://` URLs only.
/// - ``urlSession(limits:configuration:)``: `http(s)://` URLs only.
/// - ``inMemory(_:)``: canned responses keyed by URL.
///
/// ```swift
/// let client = APIClient(transport: .inMemory([url: TransportResponse(url: url, statusCode: 200, body: json)]))
/// let logged = Transport { request in
///     print("GET", request.url)
///     return try await Transport.standard().send(request)
/// }
/// ```
///
/// An HTTP transport sends a request's method, headers and body, and its
/// ``TransportRequest/validators`` as `If-None-Match` and `If-Modified-Since`, and returns the
/// response's headers, so a server can answer `304 Not Modified`; the file and in-memory
/// transports only read, and have no validators.
///
/// A transport throws ``APIError`` for what it can name (a missing file, a timeout, a failed
/// connection, a body over the limit) and `CancellationError` when its task is cancelled. It
/// does not judge status codes or bodies; ``APIClient`` does.
public struct Transport: Sendable {
    /// Loads what `request` asks for.
    public var send: @Sendable (_ request: TransportRequest) async throws -> TransportResponse

    /// Creates a transport from a function that loads a request.
    public init(send: @escaping @Sendable (_ request: TransportRequest) async throws -> TransportResponse) {
        self.send = send
    }

    /// Loads `url`, unconditionally.
    public func load(_ url: URL) async throws -> TransportResponse {
        try await send(TransportRequest(url: url))
    }

    /// Reads `file://` URLs from the file system, off the caller's actor, refusing a file
    /// larger than the default ``TransportLimits/maximumBodySize``.
    public static let fileSystem = fileSystem(maximumBodySize: TransportLimits().maximumBodySize)

    /// Reads `file://` URLs from the file system, off the caller's actor, refusing anything
    /// but a regular file of at most `maximumBodySize` bytes, on this machine (a URL naming a
    /// host other than `localhost`, such as `file://tmp/x.json`, is
    /// ``APIError/fileUnreadable(url:path:reason:)``). A request that writes (not `GET` or
    /// `HEAD`) is ``APIError/unsupportedMethod(method:url:)``.
    public static func fileSystem(maximumBodySize: Int) -> Transport {
        Transport { request in
            guard request.url.isFileURL else { throw APIError.unsupportedScheme(url: request.url) }
            try request.requireRead()
            return try await FileReader.read(request.url, maximumSize: maximumBodySize)
        }
    }

    /// Loads `http(s)://` URLs through `URLSession`, within `limits`. Cancelling the calling
    /// task cancels the request.
    ///
    /// - Parameters:
    ///   - limits: The idle timeout, the whole-request deadline and the body size limit.
    ///   - configuration: The session's configuration; `nil` (the default) shares one
    ///     ephemeral session between every transport made without one. Its
    ///     `httpAdditionalHeaders` go with each request as the request's own headers (a
    ///     request's header of the same name wins), so an `Authorization` set there follows a
    ///     redirect only within its origin, as a request's does. The transport works on a copy.
    ///     On Linux a load that ends early (cancelled, timed out) lets its transfer finish in
    ///     the background, holding a connection until then: give the configuration room for
    ///     them in `httpMaximumConnectionsPerHost` (FoundationNetworking's default is 6; the
    ///     shared session allows 32).
    public static func urlSession(
        limits: TransportLimits = TransportLimits(), configuration: URLSessionConfiguration? = nil
    ) -> Transport {
        let session = configuration.map(HTTPSession.init) ?? HTTPSession.shared
        return Transport { request in
            guard ["http", "https"].contains(request.url.scheme?.lowercased()) else {
                throw APIError.unsupportedScheme(url: request.url)
            }
            return try await session.fetch(request, limits: limits)
        }
    }

    /// `file://` URLs from the file system and `http(s)://` URLs through `URLSession`, within
    /// `limits`.
    ///
    /// NB: on Linux `URLSession` rejects file URLs ("unsupported URL"), so files never reach it.
    public static func standard(
        limits: TransportLimits = TransportLimits(), configuration: URLSessionConfiguration? = nil
    ) -> Transport {
        let http = urlSession(limits: limits, configuration: configuration)
        let files = fileSystem(maximumBodySize: limits.maximumBodySize)
        return Transport { request in
            try await (request.url.isFileURL ? files : http).send(request)
        }
    }

    /// ``standard(limits:configuration:)`` with the default limits but for the idle timeout.
    public static func standard(timeout: Duration) -> Transport {
        standard(limits: TransportLimits(idleTimeout: timeout))
    }

    /// Serves `responses` from memory; any other URL fails like a missing resource (HTTP 404).
    /// Validators are ignored: every load is a full one. A request that writes (not `GET` or
    /// `HEAD`) is ``APIError/unsupportedMethod(method:url:)``.
    public static func inMemory(_ responses: [URL: TransportResponse]) -> Transport {
        Transport { request in
            try Task.checkCancellation()
            try request.requireRead()
            return responses[request.url] ?? TransportResponse(url: request.url, statusCode: 404, body: Data())
        }
    }
}

extension TransportRequest {
    /// Throws ``APIError/unsupportedMethod(method:url:)`` unless the request only reads: for
    /// the transports that cannot write.
    func requireRead() throws {
        guard method.isRead else { throw APIError.unsupportedMethod(method: method.rawValue, url: url) }
    }
}
