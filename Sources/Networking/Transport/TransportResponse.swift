import ContentLoading
import Foundation

/// The raw answer of a ``Transport``: the body and, for HTTP, the status code and headers.
public struct TransportResponse: Sendable, Hashable {
    /// The URL that was loaded.
    public var url: URL
    /// The HTTP status code, or `nil` for a transport without one (a file).
    public var statusCode: Int?
    /// The HTTP response headers, names lowercased; empty for a transport without them.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - url: The URL that was loaded.
    ///   - statusCode: The HTTP status code; `nil` for a transport without one.
    ///   - headers: The response headers; their names are lowercased.
    ///   - body: The body.
    public init(url: URL, statusCode: Int? = nil, headers: [String: String] = [:], body: Data) {
        self.url = url
        self.statusCode = statusCode
        self.headers = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }

    /// The value of the header `name` (in any case).
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    /// The response's `ETag` and `Last-Modified`, with its ``freshness``.
    public var validators: Validators {
        Validators(entityTag: header("ETag"), lastModified: header("Last-Modified"), freshness: freshness)
    }
}
