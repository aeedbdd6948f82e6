/// The method of a request: `GET` and `HEAD` read, the others write.
///
/// ```swift
/// let request = TransportRequest(method: .put, url: url, headers: ["Content-Type": "application/json"], body: json)
/// ```
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The method's name as sent, in capitals: `GET`, `PUT`.
    public let rawValue: String

    /// Creates a method from its name; it is sent in capitals.
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

    /// Creates a method from its name; it is sent in capitals.
    public init(stringLiteral name: String) { self.init(rawValue: name) }

    /// `GET`: Reads a resource.
    public static let get: HTTPMethod = "GET"
    /// `HEAD`: Reads a resource's headers only.
    public static let head: HTTPMethod = "HEAD"
    /// `POST`: Creates, or runs something on the server; not idempotent.
    public static let post: HTTPMethod = "POST"
    /// `PUT`: Replaces a resource; idempotent.
    public static let put: HTTPMethod = "PUT"
    /// `PATCH`: Changes part of a resource; not idempotent.
    public static let patch: HTTPMethod = "PATCH"
    /// `DELETE`: Removes a resource; idempotent.
    public static let delete: HTTPMethod = "DELETE"

    /// Whether sending the request twice has the effect of sending it once (RFC 9110, 9.2.2):
    /// `GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS` and `TRACE`; not `POST` or `PATCH`.
    public var isIdempotent: Bool {
        ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"].contains(rawValue)
    }

    /// Whether the request only reads (`GET`, `HEAD`): the file and in-memory transports
    /// answer nothing else.
    public var isRead: Bool { self == .get || self == .head }

    /// The method's name, as sent.
    public var description: String { rawValue }
}
