import ContentLoadingSupport
import Foundation

extension APIClient {
    /// Sends `request` (its body encoded as JSON with ``makeEncoder``) and decodes the response
    /// as `Response`.
    ///
    /// ```swift
    /// let saved: Contact = try await client.send(.put(url, body: edited, ifMatch: etag))
    /// let maybe: Contact? = try await client.send(.patch(url, body: change))   // nil for a 204
    /// ```
    ///
    /// A response with no body (`204 No Content`) decodes as `nil` when `Response` is optional,
    /// and is ``APIError/emptyBody(url:)`` otherwise.
    ///
    /// - Throws: ``APIError`` naming the URL and what failed: a status outside 2xx (a `409` or
    ///   `412` to a write is ``APIError/conflict(url:status:body:entityTag:)``), a body that
    ///   cannot be encoded or decoded, a transport failure. For a method other than `GET` it is
    ///   ``APIError/request(method:isRepeatable:failure:)``, which names the method.
    ///   `CancellationError` when the calling task is cancelled.
    public func send<Response: Decodable>(_ request: APIRequest, as type: Response.Type = Response.self)
        async throws -> Response
    {
        let response = try await send(request)
        return try await request.naming {
            guard !response.body.isEmpty else {
                // NB: an optional type (`Contact?`) is the one that can say "no value".
                let none = (Response.self as? any ExpressibleByNilLiteral.Type)?.init(nilLiteral: ())
                guard let none = none as? Response else { throw APIError.emptyBody(url: response.url) }
                return none
            }
            return try decode(type, from: response.body, url: response.url)
        }
    }

    /// Sends `request` and returns the checked response (its status 2xx, its body possibly
    /// empty), with its headers: the `ETag` of what a write stored, say.
    ///
    /// ```swift
    /// try await client.send(.delete(url, ifMatch: etag))
    /// ```
    ///
    /// - Throws: ``APIError`` as ``send(_:as:)`` does.
    @discardableResult
    public func send(_ request: APIRequest) async throws -> TransportResponse {
        try await request.naming {
            try await checkedResponse(to: transportRequest(for: request), allowsEmptyBody: true)
        }
    }

    /// The transport request that sends `request`: its body encoded, and the headers it sets.
    func transportRequest(for request: APIRequest) throws -> TransportRequest {
        var headers = request.headers
        var body: Data?
        if let value = request.body {
            do {
                body = try makeEncoder().encode(value)
            } catch let error as EncodingError {
                throw APIError(error, url: request.url)
            }
            if !headers.keys.contains(where: { $0.lowercased() == "content-type" }) {
                headers["Content-Type"] = "application/json"
            }
        }
        if let ifMatch = request.ifMatch { headers["If-Match"] = ifMatch }
        if let key = request.idempotencyKey { headers["Idempotency-Key"] = key }
        return TransportRequest(method: request.method, url: request.url, headers: headers, body: body)
    }
}

extension APIRequest {
    /// Runs `body`, naming this request's method in an ``APIError`` it throws (unless `GET`).
    func naming<Value>(_ body: () async throws -> Value) async throws -> Value {
        do {
            return try await body()
        } catch let error as APIError where method != .get {
            throw APIError.request(method: method, isRepeatable: isRepeatable, failure: error)
        }
    }
}

extension APIError {
    /// Translates an `EncodingError` of a body for `url` into an error naming the JSON path.
    init(_ error: EncodingError, url: URL) {
        switch error {
        case .invalidValue(_, let context):
            self = .encoding(url: url, path: context.codingPath.jsonPath, reason: context.debugDescription)
        @unknown default:
            self = .encoding(url: url, path: "$", reason: String(describing: error))
        }
    }
}
