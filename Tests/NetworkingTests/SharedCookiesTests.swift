import ContentLoadingNetworking
import Foundation
import KitTestSupport
import Testing

/// The transports made without a configuration share one session, which keeps the cookies
/// servers set, as `URLSession` does; `Transport.removeSharedCookies()` removes them (a
/// sign-out). Against the fixture server, a real process; its cookie's path is `/cookie`, so
/// no other test's request carries it.
@Suite(.timeLimit(.minutes(1)))
struct SharedCookiesTests {
    struct Echo: Decodable { let headers: [String: String] }

    @Test func aCookieAServerSetGoesBackUntilTheSharedCookiesAreRemoved() async throws {
        let server = try LocalHTTPServer.start()
        defer { server.stop() }
        _ = try await APIClient().data(from: server.url("cookie/set?value=alice"))
        let kept = try await APIClient(transport: .urlSession()).fetch(Echo.self, from: server.url("cookie/echo"))
        #expect(kept.headers["cookie"] == "session=alice", "another client of the shared session sends it")

        Transport.removeSharedCookies()
        let removed = try await APIClient().fetch(Echo.self, from: server.url("cookie/echo"))
        #expect(removed.headers["cookie"] == nil)
    }
}
