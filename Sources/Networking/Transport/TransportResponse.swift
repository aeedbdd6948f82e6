import Foundation

/// The raw answer of a ``Transport``: the body and, for HTTP, the status code.
public struct TransportResponse: Sendable, Hashable {
    /// The URL that was loaded.
    public var url: URL
    /// The HTTP status code, or `nil` for a transport without one (a file).
    public var statusCode: Int?
    /// The body.
    public var body: Data

    /// Creates a response.
    public init(url: URL, statusCode: Int? = nil, body: Data) {
        self.url = url
        self.statusCode = statusCode
        self.body = body
    }
}
