import ContentLoadingNetworking
import Foundation
import KitTestSupport
import Testing

/// A write the server redirects goes to the new place whole: its method, body and headers
/// (with the same idempotency key), for every redirect but `303`, which is the server's answer
/// to read with a `GET`. FoundationNetworking, following redirects itself, sent the method with
/// an empty body (a `PUT` of a contact arrived empty), and a `POST` answered `301` or `302` as a
/// `GET`, whose answer passed for the write's. Against the fixture server, a real process.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct RedirectedWriteTests {
    /// What the server's `/echo` route received.
    struct Echo: Decodable, Equatable {
        let method: String
        let headers: [String: String]
        let body: String
    }

    let server: LocalHTTPServer

    init() throws { server = try LocalHTTPServer.start() }

    /// The server's redirect with `status` to its `/echo`.
    func redirect(_ status: Int) -> URL {
        server.url("redirect?status=\(status)&to=%2Fecho")
    }

    static let writes: [HTTPMethod] = [.post, .put, .patch, .delete]

    @Test(arguments: writes, [301, 302, 307, 308])
    func aRedirectedWriteIsSentAgainWhole(method: HTTPMethod, status: Int) async throws {
        let request = TransportRequest(
            method: method, url: redirect(status),
            headers: ["Content-Type": "application/json", "Idempotency-Key": "k-1"],
            body: Data(#"{"phone":"+1 555 0100"}"#.utf8))
        let response = try await Transport.standard().send(request)
        #expect(response.url == server.url("echo"), "the response names where it came from")
        let echo = try JSONDecoder().decode(Echo.self, from: response.body)
        #expect(echo.method == method.rawValue)
        #expect(echo.body == #"{"phone":"+1 555 0100"}"#)
        #expect(echo.headers["content-type"] == "application/json")
        #expect(echo.headers["idempotency-key"] == "k-1", "one key: a server that keeps it applies the write once")
    }

    @Test(arguments: writes)
    func aWriteAnswered303IsReadWithAGet(method: HTTPMethod) async throws {
        let request = TransportRequest(
            method: method, url: redirect(303), headers: ["Content-Type": "application/json"],
            body: Data(#"{"a":1}"#.utf8))
        let echo = try JSONDecoder().decode(Echo.self, from: try await Transport.standard().send(request).body)
        #expect(echo.method == "GET")
        #expect(echo.body == "")
        #expect(echo.headers["content-type"] == nil, "no body, so no body type")
    }

    /// Through a client, as an app sends it: the write's answer is the new place's.
    @Test func aClientsPutFollowsAPermanentRedirect() async throws {
        let client = APIClient(transport: .standard())
        let echo: Echo = try await client.send(.put(redirect(308), body: ["phone": "+1 555 0100"]))
        #expect(echo.method == "PUT")
        #expect(echo.body == #"{"phone":"+1 555 0100"}"#)
    }

    /// `url` behind one more of the server's redirects.
    func redirected(_ url: URL) -> URL {
        server.url("redirect?to=\(url.absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
    }

    /// Three redirects of 400 ms each, under a deadline of one second: each hop is within it,
    /// the load is not. (A loaded machine only makes the hops slower.)
    @Test func theDeadlineBoundsTheWholeLoadItsRedirectsIncluded() async throws {
        var url = server.url("echo")
        for _ in 0..<3 {
            let target = url.absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            url = server.url("redirect?delay_ms=400&to=\(target)")
        }
        let transport = Transport.standard(limits: TransportLimits(deadline: .seconds(1)))
        let error = try await apiError { try await transport.send(TransportRequest(url: url)) }
        guard case .deadlineExceeded(_, let after) = error else {
            Issue.record("expected the deadline, got \(error)")
            return
        }
        #expect(after == .seconds(1))
    }

    @Test func aLoadFollowsTwentyRedirectsAtMost() async throws {
        var url = server.url("echo")
        for _ in 0..<20 { url = redirected(url) }
        let response = try await Transport.standard().send(TransportRequest(method: .post, url: url))
        #expect(try JSONDecoder().decode(Echo.self, from: response.body).method == "POST", "twenty are followed")

        let error = try await apiError {
            try await Transport.standard().send(TransportRequest(method: .post, url: redirected(url)))
        }
        guard case .transport(_, let reason) = error else {
            Issue.record("expected a transport error, got \(error)")
            return
        }
        #expect(reason.contains("too many redirects"))
    }
}
