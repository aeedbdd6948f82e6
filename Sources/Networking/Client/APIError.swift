import Foundation

/// Why loading or decoding a URL failed; every message names the URL and what failed there.
///
/// ```swift
/// do { _ = try await client.fetch([Contact].self, from: url) }
/// catch let error as APIError { print(error) }
/// // HTTP 404 from http://127.0.0.1:8080/contacts
/// // JSON at file:///…/contacts.json: expected String at $[3].phone, found a number
/// ```
public enum APIError: Error, Sendable, Hashable {
    /// The server answered with a status outside 200–299.
    case httpStatus(url: URL, status: Int, body: String?)
    /// The response had no body.
    case emptyBody(url: URL)
    /// The server sent no data within the timeout.
    case timedOut(url: URL, after: Duration)
    /// The connection failed (refused, lost, truncated, no network…).
    case transport(url: URL, reason: String)
    /// No file exists at the URL's path.
    case fileNotFound(url: URL, path: String)
    /// A file exists but could not be read.
    case fileUnreadable(url: URL, path: String, reason: String)
    /// The URL's scheme is not one the transport loads.
    case unsupportedScheme(url: URL)
    /// The body is not valid JSON.
    case malformedJSON(url: URL, reason: String)
    /// The JSON is valid but not of the expected shape: at `path` (a JSON path such as
    /// `$[3].phone`) the decoder expected `expected`.
    case decoding(url: URL, path: String, expected: String, reason: String)

    /// The URL the failure is about.
    public var url: URL {
        switch self {
        case .httpStatus(let url, _, _), .emptyBody(let url), .timedOut(let url, _), .transport(let url, _),
            .fileNotFound(let url, _), .fileUnreadable(let url, _, _), .unsupportedScheme(let url),
            .malformedJSON(let url, _), .decoding(let url, _, _, _):
            url
        }
    }
}

extension APIError: LocalizedError, CustomStringConvertible {
    /// A one-line message naming what failed and where.
    public var description: String {
        switch self {
        case .httpStatus(let url, let status, let body):
            "HTTP \(status) from \(url.absoluteString)" + (body.flatMap { $0.isEmpty ? nil : ": \($0)" } ?? "")
        case .emptyBody(let url):
            "empty response body from \(url.absoluteString)"
        case .timedOut(let url, let after):
            "timed out after \(after.formatted(.units(allowed: [.seconds, .milliseconds], width: .narrow))) waiting for \(url.absoluteString)"
        case .transport(let url, let reason):
            "could not load \(url.absoluteString): \(reason)"
        case .fileNotFound(_, let path):
            "no file at \(path)"
        case .fileUnreadable(_, let path, let reason):
            "cannot read \(path): \(reason)"
        case .unsupportedScheme(let url):
            "unsupported URL scheme '\(url.scheme ?? "")' in \(url.absoluteString) (use file://, http:// or https://)"
        case .malformedJSON(let url, let reason):
            "malformed JSON at \(url.absoluteString): \(reason)"
        case .decoding(let url, let path, let expected, let reason):
            "unexpected JSON at \(url.absoluteString): expected \(expected) at \(path): \(reason)"
        }
    }

    /// The same as ``description``.
    public var errorDescription: String? { description }
}
