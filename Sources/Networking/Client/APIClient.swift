import ContentLoading
import ContentLoadingSupport
import Foundation

/// Loads a URL and decodes its JSON: the building block of an app's API manager.
///
/// It checks what a ``Transport`` returns (a 2xx status, a non-empty body) and turns decoding
/// failures into ``APIError``s that name the URL and the JSON path that failed.
///
/// ```swift
/// struct ContactsAPIManager {
///     let urlStore: any ContactsURLStore
///     let client = APIClient()
///     func contacts() async throws -> [Contact] {
///         try await client.fetch([Contact].self, from: urlStore.contactsURL)
///     }
/// }
/// ```
public struct APIClient: Sendable {
    /// Where the bytes come from.
    public var transport: Transport
    /// How the body is decoded. Called off the caller's actor.
    public var makeDecoder: @Sendable () -> JSONDecoder
    /// How a request's body is encoded (see ``send(_:)``). Called off the caller's actor.
    public var makeEncoder: @Sendable () -> JSONEncoder
    /// What adds credentials to every request and renews them after a `401`; `nil` for none.
    public var adapter: (any RequestAdapter)?
    /// Called with a report of every exchange with the transport (each attempt, each resend
    /// after a credential refresh), on the task that sent it; `nil` (the default) for none,
    /// which costs nothing. Keep it quick: the request waits for it.
    public var onExchange: (@Sendable (ExchangeReport) -> Void)?
    /// The adapter's refreshes, shared by every copy of this client.
    let credentialRefresh = CredentialRefresh()

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - transport: Where the bytes come from. Defaults to ``Transport/standard(limits:configuration:)``.
    ///   - adapter: Adds credentials to every request, and renews them once for all the
    ///     requests a server refuses at the same time with `401` (see ``RequestAdapter``).
    ///   - makeDecoder: Makes the decoder for each response (a `JSONDecoder` is not `Sendable`).
    ///   - makeEncoder: Makes the encoder for each request body sent with ``send(_:)``.
    ///   - onExchange: Called with a report of every exchange (see ``ExchangeReport``).
    public init(
        transport: Transport = .standard(), adapter: (any RequestAdapter)? = nil,
        makeDecoder: @escaping @Sendable () -> JSONDecoder = { JSONDecoder() },
        makeEncoder: @escaping @Sendable () -> JSONEncoder = { JSONEncoder() },
        onExchange: (@Sendable (ExchangeReport) -> Void)? = nil
    ) {
        self.transport = transport
        self.adapter = adapter
        self.onExchange = onExchange
        self.makeDecoder = makeDecoder
        self.makeEncoder = makeEncoder
    }

    /// Loads `url` and decodes it as `type`.
    ///
    /// - Throws: ``APIError`` naming the URL and what failed, or `CancellationError` when the
    ///   calling task is cancelled.
    public func fetch<Model: Decodable>(_ type: Model.Type, from url: URL) async throws -> Model {
        let response = try await checkedResponse(from: url)
        return try decode(type, from: response.body, url: response.url)
    }

    /// Loads `url` unless the copy the caller holds, identified by `validators`, is still
    /// current, and decodes it as `type`.
    ///
    /// With validators, an HTTP transport asks the server to answer `304 Not Modified` when the
    /// resource has not changed: that is `FetchResult.notModified(_:)`, and nothing is
    /// decoded. Otherwise the value comes with the response's validators (none from a file).
    ///
    /// ```swift
    /// let result = try await client.fetch([Contact].self, from: url, ifChangedSince: stored.validators)
    /// ```
    ///
    /// - Throws: ``APIError`` as ``fetch(_:from:)`` does; a 304 to a request without
    ///   validators is ``APIError/httpStatus(url:status:body:retryAfter:)``.
    public func fetch<Model: Decodable & Sendable>(
        _ type: Model.Type, from url: URL, ifChangedSince validators: Validators
    ) async throws -> FetchResult<Model> {
        let response = try await checkedResponse(to: TransportRequest(url: url, validators: validators))
        if response.statusCode == 304 {
            // NB: a 304 may leave out validators (and freshness headers) it does not change.
            let current = response.validators
            return .notModified(
                Validators(
                    entityTag: current.entityTag ?? validators.entityTag,
                    lastModified: current.lastModified ?? validators.lastModified,
                    freshness: current.freshness ?? validators.freshness))
        }
        return .modified(try decode(type, from: response.body, url: response.url), response.validators)
    }

    /// Loads `url` and returns its body after checking the status and that it is not empty.
    public func data(from url: URL) async throws -> Data {
        try await checkedResponse(from: url).body
    }

    /// Loads `url` and checks the status and that the body is not empty. Errors name the URL
    /// the response came from (the last one, after redirects).
    private func checkedResponse(from url: URL) async throws -> TransportResponse {
        try await checkedResponse(to: TransportRequest(url: url))
    }

    /// Sends `request` and checks the status (a 304 passes when the request had validators)
    /// and, unless `allowsEmptyBody`, that a 2xx body is not empty. Errors name the URL the
    /// response came from (the last one, after redirects) and, for a status, carry the server's
    /// `Retry-After`; a 409 or 412 to a request that writes is a conflict, with the body.
    func checkedResponse(to request: TransportRequest, allowsEmptyBody: Bool = false) async throws
        -> TransportResponse
    {
        let response = try await authenticatedResponse(to: request)
        if response.statusCode == 304, !request.validators.isEmpty { return response }
        if let status = response.statusCode, !(200..<300).contains(status) {
            if !request.method.isRead, status == 409 || status == 412 {
                throw APIError.conflict(
                    url: response.url, status: status, body: response.body.isEmpty ? nil : response.body,
                    entityTag: response.header("ETag"))
            }
            throw APIError.httpStatus(
                url: response.url, status: status, body: Self.snippet(of: response.body),
                retryAfter: response.header("Retry-After").flatMap { RetryAfter.delay($0, now: Date()) })
        }
        guard allowsEmptyBody || !response.body.isEmpty else { throw APIError.emptyBody(url: response.url) }
        return response
    }

    /// Decodes `data` loaded from `url` as `type`, naming the JSON path of any failure.
    public func decode<Model: Decodable>(_ type: Model.Type, from data: Data, url: URL) throws -> Model {
        do {
            return try makeDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            // NB: a failure without a path may be a number that does not fit (see JSONTreeDecoder).
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
                let located = JSONTreeDecoder.locateFailure(decoding: type, from: data)
            {
                throw APIError(located, data: data, url: url)
            }
            throw APIError(error, data: data, url: url)
        }
    }

    /// The start of an error body, for a message: at most 200 bytes, cut at a character
    /// boundary, control characters escaped.
    static func snippet(of body: Data) -> String? {
        var text = String(decoding: body.prefix(200), as: UTF8.self)
        // NB: a cut inside a character decodes as U+FFFD at the end; drop it rather than the text.
        if body.count > 200 {
            while text.unicodeScalars.last == "\u{FFFD}" { text.unicodeScalars.removeLast() }
            text += "…"
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed.escapingControlCharacters
    }
}
