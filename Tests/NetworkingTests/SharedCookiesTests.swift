import ContentLoadingNetworking
import Foundation
import KitTestSupport
import Testing

/// The transports made without a configuration share one session, which keeps the cookies
/// servers set, as `URLSession` does; `Transport.removeSharedCookies()` removes them (a
/// sign-out). Against the fixture server, a real process, named `localhost` here: the other
/// tests name it `127.0.0.1`, so none of their requests carries the cookie (FoundationNetworking
/// sent it, path `/cookie`, with their requests for `/echo` too).
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct SharedCookiesTests {
    struct Echo: Decodable { let headers: [String: String] }

    @Test func aCookieAServerSetGoesBackUntilTheSharedCookiesAreRemoved() async throws {
        let server = try LocalHTTPServer.start()
        defer { server.stop() }
        func url(_ path: String) throws -> URL {
            var components = try #require(URLComponents(url: server.url(path), resolvingAgainstBaseURL: false))
            components.host = "localhost"
            return try #require(components.url)
        }
        _ = try await APIClient().data(from: url("cookie/set?value=alice"))
        let kept = try await APIClient(transport: .urlSession()).fetch(Echo.self, from: url("cookie/echo"))
        #expect(kept.headers["cookie"] == "session=alice", "another client of the shared session sends it")

        Transport.removeSharedCookies()
        let removed = try await APIClient().fetch(Echo.self, from: url("cookie/echo"))
        #expect(removed.headers["cookie"] == nil)
    }
}
