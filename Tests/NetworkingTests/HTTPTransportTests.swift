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
