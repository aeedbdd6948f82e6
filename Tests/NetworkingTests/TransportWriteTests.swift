import ContentLoadingNetworking
import Foundation
import KitTestSupport
import Testing

/// Requests that write, through the http(s) transport to the fixture server (a real process on
/// 127.0.0.1), and refused by the transports that only read.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct TransportWriteTests {
    let fixture: ItemsFixture

    init() throws { fixture = try ItemsFixture("write") }

    /// What the server's `/echo` route received.
    struct Echo: Decodable, Equatable {
        let method: String
        let headers: [String: String]
        let body: String
    }

    @Test(arguments: [HTTPMethod.post, .put, .patch, .delete])
    func aWriteSendsItsMethodHeadersAndBody(method: HTTPMethod) async throws {
        let body = Data(#"{"phone":"+1 555 0100"}"#.utf8)
        let request = TransportRequest(
            method: method, url: fixture.server.url("echo"),
            headers: ["Content-Type": "application/json", "X-Request-ID": "r-7"], body: body)
        let response = try await Transport.urlSession().send(request)
        #expect(response.statusCode == 200)
        let echo = try JSONDecoder().decode(Echo.self, from: response.body)
        #expect(echo.method == method.rawValue)
        #expect(echo.body == #"{"phone":"+1 555 0100"}"#)
        #expect(echo.headers["content-type"] == "application/json")
        #expect(echo.headers["x-request-id"] == "r-7")
        #expect(echo.headers["accept"] == "application/json", "the transport's Accept stays")
    }

    @Test func aGetSendsNoBodyAndItsOwnAcceptWins() async throws {
        let request = TransportRequest(
            method: .get, url: fixture.server.url("echo"), headers: ["Accept": "application/vnd.api+json"])
        let echo = try JSONDecoder().decode(Echo.self, from: try await Transport.urlSession().send(request).body)
        #expect(echo == Echo(method: "GET", headers: echo.headers, body: ""))
        #expect(echo.headers["accept"] == "application/vnd.api+json")
    }

    @Test func aWriteAnsweredWithNoContentIsA204WithAnEmptyBody() async throws {
        let request = TransportRequest(method: .delete, url: fixture.server.url("status/204"))
        let response = try await Transport.urlSession().send(request)
        #expect(response.statusCode == 204)
        #expect(response.body.isEmpty)
    }

    @Test func theFileAndInMemoryTransportsRefuseWritesNamingTheMethodAndURL() async throws {
        let file = fixture.root.appendingPathComponent("items.json")
        let memory = URL(string: "https://api.example.com/contacts/7")!
        let transports: [(Transport, URL)] = [
            (.fileSystem, file), (.standard(), file),
            (.inMemory([memory: TransportResponse(url: memory, statusCode: 200, body: Data("{}".utf8))]), memory),
        ]
        for (transport, url) in transports {
            let error = try await apiError {
                try await transport.send(TransportRequest(method: .put, url: url, body: Data("{}".utf8)))
            }
            #expect(error == .unsupportedMethod(method: "PUT", url: url))
            #expect(error.description.contains("cannot send PUT \(url.absoluteString)"))
            #expect(!error.isTransient)
        }
        let before = try Data(contentsOf: file)
        let head = try await Transport.fileSystem.send(TransportRequest(method: .head, url: file))
        #expect(head.body == before, "a HEAD still reads")
    }

    @Test func aRequestNeverPrintsItsSecrets() {
        let request = TransportRequest(
            method: .put, url: URL(string: "https://alice:pw@api.example.com/contacts/7?api_key=abc")!,
            headers: [
                "Authorization": "Bearer s3cr3t", "cookie": "session=s3cr3t", "Content-Type": "application/json",
            ],
            body: Data("{}".utf8))
        var dumped = ""
        dump(request, to: &dumped)
        for shown in [request.description, "\(request)", String(reflecting: request), dumped] {
            #expect(!shown.contains("s3cr3t"), "\(shown)")
            #expect(!shown.contains("pw"), "\(shown)")
        }
        #expect(
            request.description
                == "PUT \(request.url.redactedForDisplay) [Authorization: <redacted>, Content-Type: application/json, cookie: <redacted>] (2-byte body)"
        )
    }

    @Test func methodsSayWhetherTheyAreIdempotent() {
        let idempotent = [HTTPMethod.get, .head, .put, .delete, .post, .patch].map(\.isIdempotent)
        #expect(idempotent == [true, true, true, true, false, false])
        #expect(HTTPMethod(rawValue: "put") == .put)
    }
}
