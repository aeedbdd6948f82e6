import ContentLoadingSupport
import Foundation

/// Why loading or decoding a URL failed; every message names the URL and what failed there.
///
/// ```swift
/// do { _ = try await client.fetch([Contact].self, from: url) }
/// catch let error as APIError { print(error) }
/// // HTTP 404 from http://127.0.0.1:8080/contacts
/// // unexpected JSON at file:///…/contacts.json: expected String at $[3].phone: …
/// ```
public indirect enum APIError: Error, Sendable, Hashable {
    /// The server answered with a status outside 200–299, with the start of its body and,
    /// when it sent `Retry-After`, how long it asked to wait.
    case httpStatus(url: URL, status: Int, body: String?, retryAfter: Duration? = nil)
    /// The response had no body.
    case emptyBody(url: URL)
    /// The server sent no data within the idle timeout.
    case timedOut(url: URL, after: Duration)
    /// The whole load took longer than its deadline (see ``TransportLimits/deadline``).
    case deadlineExceeded(url: URL, after: Duration)
    /// The body, after decompression, is larger than the limit (see
    /// ``TransportLimits/maximumBodySize``); the load stopped at the limit.
    case bodyTooLarge(url: URL, limit: Int)
    /// The server redirected to a URL the transport does not follow (only http(s) is).
    case redirectRefused(from: URL, to: URL)
    /// The connection failed (refused, lost, truncated, no network…).
    case transport(url: URL, reason: String)
    /// No file exists at the URL's path.
    case fileNotFound(url: URL, path: String)
    /// A file exists but could not be read, or a `file` URL names another machine
    /// (`file://tmp/x.json`, a slash short of `file:///tmp/x.json`): then `path` is the URL.
    case fileUnreadable(url: URL, path: String, reason: String)
    /// The URL's scheme is not one the transport loads.
    case unsupportedScheme(url: URL)
    /// A header of the request that HTTP cannot carry: its name is not an HTTP token (it holds
    /// a space, a colon, a line break…), or its value holds a line break or a NUL, which would
    /// end the header early (`URLSession` drops such a header without a word, so a token read
    /// with its trailing newline became a bare `401`). Nothing was sent. The message names the
    /// header, never its value, which may be a credential.
    case invalidHeader(name: String, url: URL)
    /// The transport cannot send this method: the file and in-memory transports only read
    /// (`GET`, `HEAD`).
    case unsupportedMethod(method: String, url: URL)
    /// The body is not valid JSON.
    case malformedJSON(url: URL, reason: String)
    /// The JSON is valid but not of the expected shape: at `path` (a JSON path such as
    /// `$[3].phone`) the decoder expected `expected`.
    case decoding(url: URL, path: String, expected: String, reason: String)
    /// A request's body could not be encoded as JSON (at `path`, a JSON path); nothing was sent.
    case encoding(url: URL, path: String, reason: String)
    /// A write was refused because the resource is not in the state it expected: `412
    /// Precondition Failed` (its `If-Match` named an ETag the resource no longer has) or `409
    /// Conflict`. `body` is the server's current representation when it sent one (decode it
    /// with ``APIClient/decode(_:from:url:)``), `entityTag` its current ETag.
    case conflict(url: URL, status: Int, body: Data?, entityTag: String?)
    /// A request sent by ``APIClient/send(_:)`` with a method other than `GET` failed: its
    /// method, whether it was safe to send again (``APIRequest/isRepeatable``), and the failure.
    /// Its message names the method; it is transient only when the request is repeatable.
    case request(method: HTTPMethod, isRepeatable: Bool, failure: APIError)

    /// The URL the failure is about.
    public var url: URL {
        switch self {
        case .httpStatus(let url, _, _, _), .emptyBody(let url), .timedOut(let url, _), .deadlineExceeded(let url, _),
            .bodyTooLarge(let url, _), .redirectRefused(let url, _), .transport(let url, _),
            .fileNotFound(let url, _), .fileUnreadable(let url, _, _), .unsupportedScheme(let url),
            .invalidHeader(_, let url), .unsupportedMethod(_, let url),
            .malformedJSON(let url, _), .decoding(let url, _, _, _), .encoding(let url, _, _),
            .conflict(let url, _, _, _):
            url
        case .request(_, _, let failure): failure.url
        }
    }

    /// The method of the request that failed: `GET` unless this is a
    /// ``request(method:isRepeatable:failure:)``.
    public var method: HTTPMethod {
        if case .request(let method, _, _) = self { method } else { .get }
    }

    /// What failed, seen through a ``request(method:isRepeatable:failure:)``.
    public var failure: APIError {
        if case .request(_, _, let failure) = self { failure.failure } else { self }
    }
}

extension APIError: LocalizedError, CustomStringConvertible {
    /// A one-line message naming what failed and where.
    ///
    /// URLs are shown without user-info and with secret-looking query values masked
    /// (`Foundation.URL.redactedForDisplay`); control characters from the outside (a
    /// server's body, a JSON key) are escaped, so the message stays one line and cannot drive
    /// a terminal.
    public var description: String { message.escapingControlCharacters }

    private var message: String {
        switch self {
        case .httpStatus(let url, let status, let body, _):
            "HTTP \(status) from \(url.redactedForDisplay)" + (body.flatMap { $0.isEmpty ? nil : ": \($0)" } ?? "")
        case .emptyBody(let url):
            "empty response body from \(url.redactedForDisplay)"
        case .timedOut(let url, let after):
            "timed out after \(after.spoken) without data from \(url.redactedForDisplay)"
        case .deadlineExceeded(let url, let after):
            "\(url.redactedForDisplay) took longer than the deadline of \(after.spoken)"
        case .bodyTooLarge(let url, let limit):
            "the body from \(url.redactedForDisplay) is larger than the limit of \(limit.spokenBytes)"
        case .redirectRefused(let from, let to):
            "\(from.redactedForDisplay) redirected to \(to.redactedForDisplay), which is not http(s); not followed"
        case .transport(let url, let reason):
            "could not load \(url.redactedForDisplay): \(reason)"
        case .fileNotFound(let url, let path) where path.isEmpty:
            "no file at \(url.redactedForDisplay): it names no path"
        case .fileNotFound(_, let path):
            "no file at \(path)"
        case .fileUnreadable(_, let path, let reason):
            "cannot read \(path): \(reason)"
        case .unsupportedScheme(let url):
            "unsupported URL scheme '\(url.scheme ?? "")' in \(url.redactedForDisplay) (use file://, http:// or https://)"
        case .invalidHeader(let name, let url) where TransportRequest.isToken(name):
            "cannot send \(url.redactedForDisplay): the value of the header \(name) holds a line break or NUL; nothing was sent"
        case .invalidHeader(let name, let url):
            "cannot send \(url.redactedForDisplay): \"\(name)\" is not a header name HTTP allows; nothing was sent"
        case .unsupportedMethod(let method, let url):
            "cannot send \(method) \(url.redactedForDisplay): this transport only reads (GET, HEAD); use an http(s) transport"
        case .malformedJSON(let url, let reason):
            "malformed JSON at \(url.redactedForDisplay): \(reason)"
        case .decoding(let url, let path, let expected, let reason):
            "unexpected JSON at \(url.redactedForDisplay): expected \(expected) at \(path): \(reason)"
        case .encoding(let url, let path, let reason):
            "cannot encode the body for \(url.redactedForDisplay) as JSON at \(path): \(reason)"
        case .conflict(let url, let status, let body, _):
            "HTTP \(status) from \(url.redactedForDisplay): conflict, the resource is not as the request expected"
                + (body.flatMap { APIClient.snippet(of: $0) }.map { ": \($0)" } ?? "")
        case .request(let method, _, let failure):
            "\(method) request failed: \(failure.message)"
        }
    }

    /// The same as ``description``.
    public var errorDescription: String? { description }
}

extension Duration {
    /// "500ms", "3s", "2.5s".
    fileprivate var spoken: String {
        // NB: Foundation's formatting traps on `.seconds(Int64.min)` (an app's limit, shown in
        // the error it gives); every duration past ±Int64.max seconds is shown as that.
        let bounded = min(max(self, .seconds(-Int64.max)), .seconds(Int64.max))
        return bounded.formatted(.units(allowed: [.seconds, .milliseconds], width: .narrow))
    }
}

extension Int {
    /// "32 MiB", "1,500 bytes".
    fileprivate var spokenBytes: String {
        if self >= 1 << 20, self % (1 << 20) == 0 { return "\(self >> 20) MiB" }
        if self >= 1 << 10, self % (1 << 10) == 0 { return "\(self >> 10) KiB" }
        return "\(self) bytes"
    }
}
