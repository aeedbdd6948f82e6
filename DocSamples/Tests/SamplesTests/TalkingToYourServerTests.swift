import ContentLoadingNetworking
import Foundation
import Samples
import Testing

/// The "Talking to your server" samples, run against a transport that answers as a server would.
@Suite(.timeLimit(.minutes(1)))
struct TalkingToYourServerTests {
    let url = URL(string: "https://api.example.com/contacts/7")!

    @Test func aConflictingSaveReturnsTheServersVersion() async throws {
        let server = Transport { request in
            #expect(request.method == .put && request.headers["If-Match"] == #""v1""#)
            return TransportResponse(
                url: request.url, statusCode: 412, headers: ["ETag": #""v2""#],
                body: Data(#"{"id": 7, "phone": "server"}"#.utf8))
        }
        #expect(try await TalkingToYourServer.savePhone("mine", at: url, etag: #""v1""#, transport: server) == "server")
    }

    @Test func aCreateSendsItsIdempotencyKey() async throws {
        let server = Transport { request in
            #expect(request.method == .post && request.headers["Idempotency-Key"] == "draft-1")
            return TransportResponse(url: request.url, statusCode: 201, body: Data(#"{"id": 42, "phone": "555"}"#.utf8))
        }
        #expect(try await TalkingToYourServer.createContact(at: url, key: "draft-1", transport: server) == 42)
    }
}
