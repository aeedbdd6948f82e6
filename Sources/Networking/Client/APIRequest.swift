import Foundation

/// A request an ``APIClient`` sends: a method, a URL, headers, and a body it encodes as JSON.
///
/// ```swift
/// let saved: Contact = try await client.send(.put(url, body: edited, ifMatch: etag))
/// let created: Contact = try await client.send(.post(url, body: draft, idempotencyKey: draftID))
/// try await client.send(.delete(url, ifMatch: etag))        // 204: nothing to decode
/// ```
///
/// A write can carry the ETag of the copy it edits (``ifMatch``, sent as `If-Match`): a server
/// whose resource changed since answers `412`, which is ``APIError/conflict(url:status:body:entityTag:)``.
/// A request that is not idempotent (`POST`, `PATCH`) can carry an ``idempotencyKey`` (sent as
/// `Idempotency-Key`); only then, or when its method is idempotent, is a transient failure of
/// it retried by a `RetryPolicy` (see ``isRepeatable``).
public struct APIRequest: Sendable {
    /// The method.
    public var method: HTTPMethod
    /// The URL.
    public var url: URL
    /// Headers sent beside the ones the request sets itself (`Content-Type`, `If-Match`,
    /// `Idempotency-Key`); a secret one (``TransportRequest/secretHeaderNames``) is never printed.
    public var headers: [String: String]
    /// The body, encoded as JSON by the client's encoder; `nil` for none.
    public var body: (any Encodable & Sendable)?
    /// The ETag of the copy this write edits, sent as `If-Match`; `nil` for an unconditional write.
    public var ifMatch: String?
    /// A key that stays the same for every attempt of this request, sent as `Idempotency-Key`,
    /// so that a server that remembers keys applies it once however often it arrives.
    public var idempotencyKey: String?

    /// Creates a request.
    public init(
        method: HTTPMethod, url: URL, headers: [String: String] = [:], body: (any Encodable & Sendable)? = nil,
        ifMatch: String? = nil, idempotencyKey: String? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.ifMatch = ifMatch
        self.idempotencyKey = idempotencyKey
    }

    /// Whether sending it twice is safe: its method is idempotent (`GET`, `HEAD`, `PUT`,
    /// `DELETE`) or it carries an ``idempotencyKey``. A failure of a request that is not is never
    /// transient, so no `RetryPolicy` sends it again.
    public var isRepeatable: Bool { method.isIdempotent || idempotencyKey != nil }

    /// A `GET` of `url`.
    public static func get(_ url: URL, headers: [String: String] = [:]) -> APIRequest {
        APIRequest(method: .get, url: url, headers: headers)
    }

    /// A `POST` of `body` to `url`: not idempotent, so retried only with an `idempotencyKey`.
    public static func post(
        _ url: URL, body: (any Encodable & Sendable)? = nil, headers: [String: String] = [:],
        idempotencyKey: String? = nil
    ) -> APIRequest {
        APIRequest(method: .post, url: url, headers: headers, body: body, idempotencyKey: idempotencyKey)
    }

    /// A `PUT` of `body` to `url`, conditional on `ifMatch` when given.
    public static func put(
        _ url: URL, body: any Encodable & Sendable, headers: [String: String] = [:], ifMatch: String? = nil,
        idempotencyKey: String? = nil
    ) -> APIRequest {
        APIRequest(
            method: .put, url: url, headers: headers, body: body, ifMatch: ifMatch, idempotencyKey: idempotencyKey)
    }

    /// A `PATCH` of `body` to `url`, conditional on `ifMatch` when given: not idempotent, so
    /// retried only with an `idempotencyKey`.
    public static func patch(
        _ url: URL, body: any Encodable & Sendable, headers: [String: String] = [:], ifMatch: String? = nil,
        idempotencyKey: String? = nil
    ) -> APIRequest {
        APIRequest(
            method: .patch, url: url, headers: headers, body: body, ifMatch: ifMatch, idempotencyKey: idempotencyKey)
    }

    /// A `DELETE` of `url`, conditional on `ifMatch` when given.
    public static func delete(
        _ url: URL, headers: [String: String] = [:], ifMatch: String? = nil, idempotencyKey: String? = nil
    ) -> APIRequest {
        APIRequest(method: .delete, url: url, headers: headers, ifMatch: ifMatch, idempotencyKey: idempotencyKey)
    }
}
