import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Loads the bytes behind a URL: the one piece of I/O an ``APIClient`` depends on.
///
/// A transport is a `Sendable` struct of one closure, so an app can plug in its own networking
/// library and a test can serve canned data from memory. The named variants:
///
/// - ``standard(timeout:session:)``: `file://` from the file system, `http(s)://` through `URLSession`.
/// - ``fileSystem``: `file://` URLs only.
/// - ``urlSession(_:timeout:)``: `http(s)://` URLs only.
/// - ``inMemory(_:)``: canned responses keyed by URL.
///
/// ```swift
/// let client = APIClient(transport: .inMemory([url: TransportResponse(url: url, statusCode: 200, body: json)]))
/// ```
///
/// A transport throws ``APIError`` for what it can name (a missing file, a timeout, a failed
/// connection) and `CancellationError` when its task is cancelled. It does not judge status
/// codes or bodies; ``APIClient`` does.
public struct Transport: Sendable {
    /// Loads `url`.
    public var load: @Sendable (_ url: URL) async throws -> TransportResponse

    /// Creates a transport from a load function.
    public init(load: @escaping @Sendable (_ url: URL) async throws -> TransportResponse) {
        self.load = load
    }

    /// Reads `file://` URLs from the file system, off the caller's actor.
    public static let fileSystem = Transport { url in
        guard url.isFileURL else { throw APIError.unsupportedScheme(url: url) }
        return try await FileReader.read(url)
    }

    /// Loads `http(s)://` URLs through `session`, failing after `timeout` without data.
    /// Cancelling the calling task cancels the request.
    public static func urlSession(_ session: URLSession = .shared, timeout: Duration = .seconds(30)) -> Transport {
        Transport { url in
            guard ["http", "https"].contains(url.scheme?.lowercased()) else {
                throw APIError.unsupportedScheme(url: url)
            }
            return try await HTTPFetcher(session: session, timeout: timeout).fetch(url)
        }
    }

    /// `file://` URLs from the file system and `http(s)://` URLs through `URLSession`.
    ///
    /// NB: on Linux `URLSession` rejects file URLs ("unsupported URL"), so files never reach it.
    public static func standard(timeout: Duration = .seconds(30), session: URLSession = .shared) -> Transport {
        let http = urlSession(session, timeout: timeout)
        return Transport { url in
            try await (url.isFileURL ? fileSystem : http).load(url)
        }
    }

    /// Serves `responses` from memory; any other URL fails like a missing resource (HTTP 404).
    public static func inMemory(_ responses: [URL: TransportResponse]) -> Transport {
        Transport { url in
            try Task.checkCancellation()
            return responses[url] ?? TransportResponse(url: url, statusCode: 404, body: Data())
        }
    }
}
