import ContentLoadingNetworking
import Foundation
import KitTestSupport
import Testing

/// The live path against the fixture server, a real process on 127.0.0.1.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct HTTPTransportTests {
    let root: URL
    let server: LocalHTTPServer

    init() throws {
        let fixture = try ItemsFixture("http")
        (root, server) = (fixture.root, fixture.server)
    }

    @Test func decodes200() async throws {
        let items = try await APIClient().fetch([Item].self, from: server.url("fixtures/items.json"))
        #expect(items == [Item(order: 3, phone: "555")])
    }

    /// Schemes are case-insensitive: Linux's `URLSession` refused `HTTP://…` ("the URL is not
    /// one this transport can load"); the scheme is sent in lower case.
    @Test(arguments: ["HTTP", "Http"])
    func aSchemeInCapitalsIsLoaded(scheme: String) async throws {
        var components = try #require(
            URLComponents(url: server.url("fixtures/items.json"), resolvingAgainstBaseURL: false))
        components.scheme = scheme
        let url = try #require(components.url)
        #expect(try await APIClient().fetch([Item].self, from: url) == [Item(order: 3, phone: "555")])
    }

    /// An IPv6 literal host: Linux's `URLSession` refuses it as a URL it cannot load
    /// (swift-corelibs-foundation#5496), which read as if the URL were malformed; the error says
    /// so. Nothing listens on port 1, so a toolchain that loads it gets a refused connection.
    @Test func anIPv6HostIsLoadedOrNamedAsWhatLinuxCannotLoad() async throws {
        let url = try #require(URL(string: "http://[::1]:1/items.json"))
        let error = try await apiError { try await APIClient().data(from: url) }
        #expect(
            error.description.contains("cannot load a URL whose host is an IPv6 address")
                || error.description.contains("could not connect to the server"), "\(error)")
    }

    @Test(arguments: [404, 500])
    func errorStatusNamesStatusAndURL(status: Int) async throws {
        let url = server.url("status/\(status)")
        let error = try await apiError { try await APIClient().fetch([Item].self, from: url) }
        guard case .httpStatus(let failedURL, let code, _, _) = error else {
            Issue.record("expected httpStatus, got \(error)")
            return
        }
        #expect(failedURL == url)
        #expect(code == status)
        #expect(error.description.contains("HTTP \(status) from \(url.absoluteString)"))
    }

    @Test func slowServerTimesOut() async throws {
        let url = server.url("slow/5000")
        let client = APIClient(transport: .standard(timeout: .milliseconds(500)))
        let error = try await apiError { try await client.fetch([Item].self, from: url) }
        #expect(error == .timedOut(url: url, after: .milliseconds(500)))
        #expect(error.description.contains(url.absoluteString))
    }

    @Test func truncatedBodyIsAnErrorNamingTheURL() async throws {
        let url = server.url("truncated")
        let error = try await apiError { try await APIClient().fetch([Item].self, from: url) }
        #expect(error.url == url)
        #expect(error.description.contains(url.absoluteString))
    }

    @Test func emptyBodyIsAnError() async throws {
        let url = server.url("empty")
        let error = try await apiError { try await APIClient().fetch([Item].self, from: url) }
        #expect(error == .emptyBody(url: url))
    }

    @Test func cancellingTheTaskCancelsTheRequest() async throws {
        // NB: a minute, not 5 s: under the address sanitizer, with every suite running at once
        // on two cores, the polls of `waitForRequests` took longer than 5 s twice, and the
        // cancellation came after the answer. The server stops with the test.
        let url = server.url("slow/60000")
        let request = Task { try await APIClient().fetch([Item].self, from: url) }
        try await server.waitForRequests(1)
        request.cancel()
        // Had the request run to the end it would succeed with an empty list after a minute.
        await #expect(throws: CancellationError.self) { try await request.value }
    }

    @Test func refusedConnectionIsATransportError() async throws {
        server.stop()
        let url = server.url("fixtures/items.json")
        let error = try await apiError { try await APIClient().fetch([Item].self, from: url) }
        guard case .transport(let failedURL, _) = error else {
            Issue.record("expected a transport error, got \(error)")
            return
        }
        #expect(failedURL == url)
    }
}
