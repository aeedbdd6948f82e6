import ContentLoading
import ContentLoadingNetworking
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// One deadline for a whole load, its retries and waits included; and a `Retry-After` too large
/// for an integer is a long wait, capped, not ignored.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct RetryDeadlineTests {
    struct Busy: RetryableError { var isTransient: Bool { true } }

    @Test func noWaitRunsPastTheDeadline() async throws {
        let attempts = Locked(0)
        // NB: a manual clock that nobody advances: a wait that started would never end.
        let policy = RetryPolicy(
            attempts: 10, initialDelay: .seconds(1), jitter: .none, clock: ManualClock(), deadline: .milliseconds(500))
        let error = await #expect(throws: RetryDeadlineExceeded.self) {
            try await policy.run {
                attempts.withLock { $0 += 1 }
                throw Busy()
            }
        }
        #expect(attempts.withLock { $0 } == 1)
        #expect(error?.attempts == 1)
        #expect(error?.lastError is Busy)
        #expect(error?.description.hasPrefix("gave up after 1 attempt at the deadline of 0.5 seconds") == true)
    }

    @Test func aPolicyWithoutADeadlineWaitsAsBefore() async throws {
        let clock = ManualClock()
        let attempts = Locked(0)
        let policy = RetryPolicy(attempts: 2, initialDelay: .seconds(1), jitter: .none, clock: clock)
        let run = Task {
            try await policy.run {
                attempts.withLock { $0 += 1 }
                throw Busy()
            }
        }
        try await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        await #expect(throws: RetriesExhausted.self) { try await run.value }
        #expect(attempts.withLock { $0 } == 2)
    }

    @Test func theTransportEndsAnAttemptAtTheLoadsDeadline() async throws {
        let server = try LocalHTTPServer.start()
        defer { server.stop() }
        // 100 bytes, one every 100 ms: 10 s in all; each attempt may take 60 s, the load 800 ms.
        let url = server.url("trickle/100/100")
        let client = APIClient(transport: .standard(limits: TransportLimits(deadline: .seconds(60))))
        let policy = RetryPolicy(attempts: 5, initialDelay: .milliseconds(10), deadline: .milliseconds(800))
        let attempts = Locked(0)
        let error = await #expect(throws: (any Error).self) {
            try await policy.run {
                attempts.withLock { $0 += 1 }
                return try await client.data(from: url)
            }
        }
        #expect(attempts.withLock { $0 } == 1, "no attempt after the deadline")
        let shown = error.map { "\($0)" } ?? "no error"
        #expect(shown.contains("took longer than the deadline of 800ms"), "\(shown)")
    }

    @Test(arguments: ["99999999999999999999999", "9223372036854775808"])
    func aRetryAfterLargerThanAnIntegerIsCappedByThePolicy(header: String) async throws {
        let client = APIClient(
            transport: Transport { request in
                TransportResponse(url: request.url, statusCode: 503, headers: ["retry-after": header], body: Data())
            })
        let error = try #require(
            await #expect(throws: APIError.self) { try await client.data(from: URL(string: "https://example.com/x")!) })
        let wait = try #require(error.retryAfter, "a huge Retry-After asks for a long wait")
        #expect(wait >= .seconds(Int64.max / 2))
        let policy = RetryPolicy(maximumDelay: .seconds(10))
        #expect(policy.delay(after: 1, retryAfter: wait) == .seconds(10))
    }
}

/// `RetryPolicy.run` from main-actor code, with a closure that uses main-actor state.
@MainActor
@Suite struct RetryOnTheCallersActorTests {
    @Test func mainActorCodeRetriesAClosureThatUsesItsOwnState() async throws {
        struct Busy: RetryableError { var isTransient: Bool { true } }
        let policy = RetryPolicy(attempts: 3, initialDelay: .zero, jitter: .none)
        var attempts = 0
        let value = try await policy.run {
            attempts += 1
            MainActor.assertIsolated("the operation runs on the caller's actor")
            if attempts < 3 { throw Busy() }
            return attempts
        }
        #expect(value == 3)
    }
}
