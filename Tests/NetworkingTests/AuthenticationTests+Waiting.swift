import ContentLoading
import ContentLoadingNetworking
import ContentLoadingSupport
import Foundation
import Testing

/// A request waits for the shared credential refresh on its own terms: cancelled, or at its
/// load's deadline, it stops waiting at once, and the refresh goes on for the others.
extension AuthenticationTests {
    /// Credentials that start expired and are renewed to the server's "t0" when the test opens
    /// the refresh; `started` yields when the refresh begins.
    struct HeldRefresh: RequestAdapter {
        let started: AsyncStream<Void>.Continuation
        let gate: AsyncStream<Void>
        let opened = Locked(false)
        let token = Locked("expired")

        func adapt(_ request: TransportRequest) async throws -> TransportRequest {
            var request = request
            request.headers["Authorization"] = "Bearer \(token.withLock { $0 })"
            return request
        }

        func refreshCredentials() async throws -> Bool {
            started.yield()
            for await _ in gate { break }
            token.withLock { $0 = "t0" }
            return true
        }
    }

    /// A held refresh, the stream that says it started, and what opens it.
    func heldRefresh() -> (adapter: HeldRefresh, started: AsyncStream<Void>, open: @Sendable () -> Void) {
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let (gate, gateContinuation) = AsyncStream<Void>.makeStream()
        let adapter = HeldRefresh(started: startedContinuation, gate: gate)
        let open: @Sendable () -> Void = {
            adapter.opened.withLock { $0 = true }
            gateContinuation.yield()
        }
        return (adapter, started, open)
    }

    @Test func aRequestCancelledWhileTheRefreshRunsStopsWaitingAndTheOthersGetIt() async throws {
        let (adapter, started, open) = heldRefresh()
        let client = APIClient(transport: .urlSession(), adapter: adapter)
        let url = fixture.server.url("protected/items.json")
        let cancelled = Task { try await client.fetch([Item].self, from: url) }
        for await _ in started { break }  // the first request was refused and waits for the refresh
        let waiting = Task { try await client.fetch([Item].self, from: url) }
        // NB: a fallback, so a wait that does not stop fails the test instead of hanging it.
        let fallback = Task {
            try await Task.sleep(for: .seconds(10))
            open()
        }
        cancelled.cancel()
        let result = await cancelled.result
        #expect(!adapter.opened.withLock { $0 }, "it stopped waiting before the refresh ended")
        #expect(throws: CancellationError.self) { try result.get() }
        fallback.cancel()
        open()
        #expect(try await waiting.value == [Item(order: 3)], "the refresh went on for the others")
    }

    @Test func aDeadlineOfNoPracticalEndWaitsForTheRefresh() async throws {
        // NB: the wait's timer sleeps until the deadline: the standard library's clock traps on
        // one past what an Int64 of seconds holds.
        let (adapter, started, open) = heldRefresh()
        let client = APIClient(transport: .urlSession(), adapter: adapter)
        let url = fixture.server.url("protected/items.json")
        let policy = RetryPolicy(attempts: 1, deadline: .seconds(Int64.max))
        let loading = Task { try await policy.run { try await client.fetch([Item].self, from: url) } }
        for await _ in started { break }
        open()
        #expect(try await loading.value == [Item(order: 3)])
    }

    @Test func aRequestWhoseDeadlinePassesWhileTheRefreshRunsStopsWaiting() async throws {
        let (adapter, started, open) = heldRefresh()
        let client = APIClient(transport: .urlSession(), adapter: adapter)
        let url = fixture.server.url("protected/items.json")
        let fallback = Task {
            for await _ in started { break }
            try await Task.sleep(for: .seconds(10))
            open()
        }
        let policy = RetryPolicy(attempts: 1, deadline: .milliseconds(300))
        let error = await #expect(throws: (any Error).self) {
            try await policy.run { try await client.fetch([Item].self, from: url) }
        }
        #expect(!adapter.opened.withLock { $0 }, "it stopped waiting at the deadline, before the refresh ended")
        let message = error.map { String(describing: $0) } ?? "none"
        #expect(message == "\(url.absoluteString) took longer than the deadline of 300ms")
        fallback.cancel()
        open()
    }
}
