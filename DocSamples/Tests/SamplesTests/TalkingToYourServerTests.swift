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

/// The credentials and logging samples, against a transport that answers as a server would.
@Suite(.timeLimit(.minutes(1)))
struct TalkingToYourServerAuthTests {
    let url = URL(string: "https://api.example.com/contacts?api_key=k3y")!
    let renewal = URL(string: "https://api.example.com/token")!

    @Test func aRefusedTokenIsRenewedAndTheRequestSentAgain() async throws {
        let server = Transport { request in
            if request.url.path == "/token" {
                return TransportResponse(url: request.url, statusCode: 200, body: Data(#"{"token": "t1"}"#.utf8))
            }
            let allowed = request.headers["Authorization"] == "Bearer t1"
            return TransportResponse(url: request.url, statusCode: allowed ? 200 : 401, body: Data("[]".utf8))
        }
        let (body, token) = try await TalkingToYourServer.loadWithRenewal(url, renewal: renewal, transport: server)
        #expect(body == "[]")
        #expect(token == "t1")
    }

    @Test func theLoggingClientLogsEachExchangeRedacted() async throws {
        let server = Transport { request in
            TransportResponse(url: request.url, statusCode: 200, body: Data("[1, 2]".utf8))
        }
        let lines = try await TalkingToYourServer.loggedLines(loading: url, transport: server)
        #expect(lines.count == 1)
        #expect(
            lines.first?.hasPrefix(
                "GET https://api.example.com/contacts?api_key=*** → 200, 0 bytes sent, 6 received, ") == true)
    }
}
