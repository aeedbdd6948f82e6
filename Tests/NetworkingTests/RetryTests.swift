import ContentLoading
import ContentLoadingNetworking
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// Retry against the fixture server: which failures are retried, and `Retry-After`.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct RetryTests {
    let root: URL
    let server: LocalHTTPServer

    init() throws {
        let fixture = try ItemsFixture("retry")
        (root, server) = (fixture.root, fixture.server)
    }

    func requests(_ key: String) async throws -> Int {
        try await APIClient().fetch(Int.self, from: server.url("count/\(key)"))
    }

    /// A policy that waits no time at all (the waits are tested on a manual clock elsewhere).
    static let immediate = RetryPolicy(attempts: 5, initialDelay: .zero, jitter: .none)

    @Test func twoServiceUnavailablesThenSuccessGiveOneValueAfterThreeRequests() async throws {
        let url = server.url("flaky/twice/2/503/items.json")
        let items = try await Self.immediate.run { try await APIClient().fetch([Item].self, from: url) }
        #expect(items == [Item(order: 3, phone: "555")])
        #expect(try await requests("twice") == 3)
    }

    @Test func aNotFoundIsOneRequest() async throws {
        let url = server.url("flaky/missing/9/404/items.json")
        let error = await #expect(throws: APIError.self) {
            try await Self.immediate.run { try await APIClient().fetch([Item].self, from: url) }
        }
        #expect(error?.isTransient == false)
        #expect(try await requests("missing") == 1)
    }

    @Test(arguments: [408, 429, 500, 502, 503, 504])
    func transientStatusesAreRetried(status: Int) async throws {
        let url = server.url("flaky/s\(status)/1/\(status)/items.json")
        _ = try await Self.immediate.run { try await APIClient().fetch([Item].self, from: url) }
        #expect(try await requests("s\(status)") == 2)
    }

    @Test func timeoutsAndConnectionFailuresAreTransientBadRequestsAndBadDataAreNot() throws {
        let url = server.url("x")
        let transient: [APIError] = [
            .timedOut(url: url, after: .seconds(1)), .deadlineExceeded(url: url, after: .seconds(1)),
            .transport(url: url, reason: "could not connect to the server"),
        ]
        let permanent: [APIError] = [
            .httpStatus(url: url, status: 400, body: nil), .httpStatus(url: url, status: 401, body: nil),
            .httpStatus(url: url, status: 403, body: nil), .emptyBody(url: url),
            .malformedJSON(url: url, reason: "x"), .decoding(url: url, path: "$", expected: "Int", reason: "x"),
            .fileNotFound(url: url, path: "/x"), .unsupportedScheme(url: url), .bodyTooLarge(url: url, limit: 1),
        ]
        #expect(transient.allSatisfy { $0.isTransient })
        #expect(!permanent.contains { $0.isTransient })
        #expect(!RetryPolicy().isTransient(CancellationError()))
    }

    @Test func aRetryAfterInSecondsIsWaitedAtLeast() async throws {
        let clock = ManualClock()
        let waits = Locked<[Duration]>([])
        let policy = RetryPolicy(attempts: 3, initialDelay: .milliseconds(10), jitter: .none, clock: clock)
            .onRetry { attempt in waits.withLock { $0.append(attempt.delay) } }
        let url = server.url("flaky/busy/1/429/items.json?retry_after=7")
        let fetch = Task { try await policy.run { try await APIClient().fetch([Item].self, from: url) } }
        try await clock.waitForSleepers(1)
        #expect(waits.withLock { $0 } == [.seconds(7)])
        clock.advance(by: .seconds(6))
        #expect(clock.sleeperCount == 1, "still waiting after 6 of 7 seconds")
        clock.advance(by: .seconds(1))
        #expect(try await fetch.value.count == 1)
        #expect(try await requests("busy") == 2)
    }

    @Test func aRetryAfterDateIsTheTimeUntilItAndOnlyTransientStatusesAreRetryable() async throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let inTwoMinutes = formatter.string(from: Date().addingTimeInterval(120))
        for (status, header) in [(503, inTwoMinutes), (429, "not a date"), (404, "30")] {
            let client = APIClient(
                transport: Transport { request in
                    TransportResponse(
                        url: request.url, statusCode: status, headers: ["retry-after": header], body: Data())
                })
            let error = try #require(
                await #expect(throws: APIError.self) {
                    try await client.fetch([Item].self, from: URL(string: "https://example.com/items")!)
                })
            switch status {
            case 503:
                let wait = try #require(error.retryAfter)
                #expect(wait > .seconds(110) && wait <= .seconds(120), "\(wait)")
                #expect(error.isTransient)
            case 429:
                #expect(error.retryAfter == nil, "an unreadable Retry-After asks for nothing")
                #expect(error.isTransient)
            default:
                #expect(error.retryAfter == .seconds(30))
                #expect(!error.isTransient, "a 404 is never retried, whatever it asks")
            }
        }
    }
}
