import ContentLoading
import ContentLoadingNetworking
import Foundation
import KitTestSupport
import Testing

/// `APIClient.send`: requests that write, with JSON bodies, conditional on an ETag, with
/// idempotency keys, against the fixture server's record store (a real process on 127.0.0.1).
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct APIClientSendTests {
    let fixture: ItemsFixture
    let client = APIClient(transport: .urlSession())

    init() throws { fixture = try ItemsFixture("send") }

    struct Contact: Codable, Equatable, Sendable {
        var id: Int?
        var phone: String
    }

    struct Echo: Decodable, Equatable {
        let method: String
        let headers: [String: String]
        let body: String
    }

    @Test func aPutEncodesItsBodyAndDecodesTheAnswer() async throws {
        let url = fixture.server.url("records/contacts/7")
        let saved: Contact = try await client.send(.put(url, body: Contact(id: 7, phone: "+1 555 0100")))
        #expect(saved == Contact(id: 7, phone: "+1 555 0100"))
        #expect(try await client.fetch(Contact.self, from: url) == saved, "the server stored it")
    }

    @Test func theBodyIsEncodedWithTheInjectedEncoderAsJSON() async throws {
        struct Draft: Encodable, Sendable { let phoneNumber: String }
        let snakeCase = APIClient(transport: .urlSession()) {
            JSONDecoder()
        } makeEncoder: {
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            return encoder
        }
        let echo: Echo = try await snakeCase.send(
            .post(fixture.server.url("echo"), body: Draft(phoneNumber: "555"), headers: ["X-Trace": "t-1"]))
        #expect(echo.method == "POST")
        #expect(echo.body == #"{"phone_number":"555"}"#)
        #expect(echo.headers["content-type"] == "application/json")
        #expect(echo.headers["x-trace"] == "t-1")
    }

    @Test func aNoContentAnswerIsNoValue() async throws {
        let url = fixture.server.url("records/contacts/1")
        try await client.send(.put(url, body: Contact(id: 1, phone: "1")))
        let response = try await client.send(.delete(url))
        #expect(response.statusCode == 204)
        let again = try await client.send(.put(url, body: Contact(id: 1, phone: "1")))
        #expect(again.statusCode == 201)
        let none: Contact? = try await client.send(.delete(url))
        #expect(none == nil)
    }

    @Test func aValueExpectedFromANoContentAnswerIsAnErrorNamingTheMethod() async throws {
        let url = fixture.server.url("status/204")
        let error = try await #require(throws: APIError.self) {
            let _: Contact = try await client.send(.delete(url))
        }
        #expect(error == .request(method: .delete, isRepeatable: true, failure: .emptyBody(url: url)))
        #expect(error.description == "DELETE request failed: empty response body from \(url.absoluteString)")
    }

    @Test func errorsNameTheMethodTheURLTheStatusAndTheBodyButNoSecret() async throws {
        let url = fixture.server.url("nowhere")
        let error = try await #require(throws: APIError.self) {
            try await client.send(
                .patch(url, body: Contact(phone: "1"), headers: ["Authorization": "Bearer s3cr3t-token"]))
        }
        #expect(error.method == .patch)
        #expect(error.failure == .httpStatus(url: url, status: 405, body: #"{"error": "method not allowed"}"#))
        #expect(
            error.description
                == #"PATCH request failed: HTTP 405 from \#(url.absoluteString): {"error": "method not allowed"}"#)
        #expect(!error.description.contains("s3cr3t"))
        #expect(!"\(error)".contains("s3cr3t") && !String(reflecting: error).contains("s3cr3t"))
    }

    @Test func aBodyThatCannotBeEncodedIsAnErrorNamingThePathAndNothingIsSent() async throws {
        struct Reading: Encodable, Sendable { let value: Double }
        let url = fixture.server.url("records/readings/1")
        let error = try await #require(throws: APIError.self) {
            try await client.send(.put(url, body: [Reading(value: .nan)]))
        }
        guard case .encoding(_, let path, _) = error.failure else {
            Issue.record("expected an encoding error, got \(error)")
            return
        }
        #expect(path == "$[0].value")
        #expect(error.description.hasPrefix("PUT request failed: cannot encode the body for "))
        #expect(try await client.fetch(Int.self, from: fixture.server.url("record-writes/readings")) == 0)
    }

    @Test func aWriteWithAStaleETagIsAConflictCarryingTheServersValue() async throws {
        let url = fixture.server.url("records/contacts/3")
        try await client.send(.put(url, body: Contact(id: 3, phone: "first")))
        let read = try await client.fetch(Contact.self, from: url, ifChangedSince: .none)
        guard case .modified(_, let validators) = read, let etag = validators.entityTag else {
            Issue.record("expected a value with an ETag, got \(read)")
            return
        }
        let response = try await client.send(.put(url, body: Contact(id: 3, phone: "second"), ifMatch: etag))
        #expect(response.header("ETag") != etag, "the write made a new version")

        let error = try await #require(throws: APIError.self) {
            let _: Contact = try await client.send(.put(url, body: Contact(id: 3, phone: "third"), ifMatch: etag))
        }
        guard case .conflict(_, let status, let body, let current) = error.failure, let body else {
            Issue.record("expected a conflict with a body, got \(error)")
            return
        }
        #expect(status == 412)
        #expect(current == response.header("ETag"))
        #expect(try client.decode(Contact.self, from: body, url: url) == Contact(id: 3, phone: "second"))
        #expect(error.description.contains("PUT request failed: HTTP 412 from \(url.absoluteString): conflict"))
        #expect(!error.isTransient, "a conflict is not retried")
        let conflict = try #require(error.writeConflict, "the thrown error is a write conflict (as an outbox sees it)")
        #expect(conflict.body == body)
        #expect(conflict.entityTag == current)
        #expect(try await client.fetch(Contact.self, from: url).phone == "second", "nothing changed")
    }

    @Test func aReplayedIdempotencyKeyGetsTheFirstAnswerAndChangesNothing() async throws {
        let url = fixture.server.url("records/notes")
        let first: Contact = try await client.send(.post(url, body: Contact(phone: "a"), idempotencyKey: "k-1"))
        let replay: Contact = try await client.send(.post(url, body: Contact(phone: "a"), idempotencyKey: "k-1"))
        let other: Contact = try await client.send(.post(url, body: Contact(phone: "a"), idempotencyKey: "k-2"))
        #expect(first == Contact(id: 1, phone: "a"))
        #expect(replay == first)
        #expect(other.id == 2)
        #expect(try await client.fetch(Int.self, from: fixture.server.url("record-writes/notes")) == 2)
    }

    @Test func aPostWithoutAnIdempotencyKeyIsNeverRetried() async throws {
        let url = fixture.server.url("flaky/post-bare/2/503/echo")
        let error = try await #require(throws: APIError.self) {
            let _: Echo = try await Self.retrying.run { try await client.send(.post(url, body: Contact(phone: "a"))) }
        }
        #expect(error.failure == .httpStatus(url: url, status: 503, body: #"{"error": "status 503"}"#))
        #expect(!error.isTransient)
        #expect(try await client.fetch(Int.self, from: fixture.server.url("count/post-bare")) == 1, "one attempt")
    }

    @Test(arguments: [
        ("post-keyed", APIRequest.post(URL(filePath: "/"), body: Contact(phone: "a"), idempotencyKey: "k-3")),
        ("patch-keyed", .patch(URL(filePath: "/"), body: Contact(phone: "a"), idempotencyKey: "k-4")),
        ("put", .put(URL(filePath: "/"), body: Contact(phone: "a"))),
        ("delete", .delete(URL(filePath: "/"))),
    ])
    func aRepeatableWriteIsRetriedWhenItFailsTransiently(key: String, request: APIRequest) async throws {
        var request = request
        request.url = fixture.server.url("flaky/\(key)/2/503/echo")
        let echo: Echo = try await Self.retrying.run { try await client.send(request) }
        #expect(echo.method == request.method.rawValue)
        #expect(echo.headers["idempotency-key"] == request.idempotencyKey)
        #expect(try await client.fetch(Int.self, from: fixture.server.url("count/\(key)")) == 3, "two retries")
    }

    @Test func aPatchWithoutAKeyIsNotRepeatable() {
        #expect(!APIRequest.patch(URL(filePath: "/"), body: 1).isRepeatable)
        #expect(!APIRequest.post(URL(filePath: "/")).isRepeatable)
        #expect(APIRequest.post(URL(filePath: "/"), idempotencyKey: "k").isRepeatable)
        #expect(APIRequest.put(URL(filePath: "/"), body: 1).isRepeatable)
    }

    /// Three attempts, no waits between them.
    static let retrying = RetryPolicy(attempts: 3, initialDelay: .zero, jitter: .none)
}
