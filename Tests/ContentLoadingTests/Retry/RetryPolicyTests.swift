import ContentLoading
import ContentLoadingSupport
import ContentLoadingTesting
import KitTestSupport
import Testing

/// A failure that says whether it is transient, and how long to wait.
struct TransientFailure: RetryableError, Equatable, CustomStringConvertible {
    var isTransient = true
    var retryAfter: Duration?
    var description: String { isTransient ? "service unavailable" : "not found" }
}

/// `operation`'s calls, counted; each fails with the next of `failures`, then it succeeds.
final class CountedAttempts: Sendable {
    private let failures: [any Error]
    private let made = Locked(0)

    init(failing failures: [any Error]) { self.failures = failures }

    var count: Int { made.withLock { $0 } }

    @Sendable func run() throws -> String {
        let attempt = made.withLock { made in
            made += 1
            return made
        }
        if attempt <= failures.count { throw failures[attempt - 1] }
        return "value after \(attempt)"
    }
}

@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct RetryPolicyTests {
    @Test func backoffGrowsByTheMultiplierUpToTheCap() {
        let policy = RetryPolicy(initialDelay: .seconds(1), multiplier: 2, maximumDelay: .seconds(5), jitter: .none)
        #expect(
            (1...5).map(policy.backoff(after:)) == [.seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5)])
    }

    @Test(arguments: [Double.infinity, 1e300, .nan])
    func aMultiplierPastWhatADurationHoldsWaitsTheCap(_ multiplier: Double) {
        // NB: Duration's integer arithmetic traps on such a product (the process stopped).
        let policy = RetryPolicy(
            attempts: 5, initialDelay: .seconds(1), multiplier: multiplier, maximumDelay: .seconds(30))
        #expect(policy.backoff(after: 1) == .seconds(1))
        #expect(policy.backoff(after: 3) == .seconds(30))
        #expect(policy.delay(after: 4, retryAfter: nil) <= .seconds(30))
    }

    @Test(arguments: [(-1e30, 1.0), (-2.0, 1.0), (1e30, -5.0), (2.0, -5.0), (-1e300, -1.0), (-0.5, -1e9)])
    func aNegativeMultiplierOrInitialDelayIsNoWaitAndNeverTraps(_ multiplier: Double, initialSeconds: Double) {
        // NB: a negative product was taken as below the cap, and Duration's integer arithmetic
        // trapped on it (-1e30 s); one that fit gave a negative wait.
        for maximum in [Duration.seconds(30), .zero, .seconds(-3)] {
            let policy = RetryPolicy(
                attempts: 20, initialDelay: .seconds(initialSeconds), multiplier: multiplier, maximumDelay: maximum)
            for attempt in 1...20 {
                let (backoff, delay) = (policy.backoff(after: attempt), policy.delay(after: attempt, retryAfter: nil))
                let cap = max(maximum, .zero)
                #expect((Duration.zero...cap).contains(backoff), "\(multiplier), \(maximum), attempt \(attempt)")
                #expect((Duration.zero...cap).contains(delay), "\(multiplier), \(maximum), attempt \(attempt)")
            }
        }
        let shrinking = RetryPolicy(initialDelay: .seconds(-1), multiplier: 0.5, maximumDelay: .seconds(30))
        #expect(shrinking.backoff(after: 3) == .zero, "a negative initial delay is no wait")
    }

    @Test func jitterStaysWithinItsShare() {
        func delay(_ jitter: RetryJitter, random: Double) -> Duration {
            RetryPolicy(initialDelay: .seconds(4), jitter: jitter, random: { random }).delay(after: 1, retryAfter: nil)
        }
        #expect(delay(.none, random: 0.3) == .seconds(4))
        #expect(delay(.full, random: 0) == .zero)
        #expect(delay(.full, random: 0.25) == .seconds(1))
        #expect(delay(.full, random: 1) == .seconds(4))
        #expect(delay(.equal, random: 0) == .seconds(2))
        #expect(delay(.equal, random: 1) == .seconds(4))
    }

    @Test func aServersRetryAfterIsWaitedAtLeastUpToTheCap() {
        let policy = RetryPolicy(initialDelay: .seconds(1), maximumDelay: .seconds(10), jitter: .none)
        #expect(policy.delay(after: 1, retryAfter: .seconds(3)) == .seconds(3))
        #expect(policy.delay(after: 1, retryAfter: .milliseconds(10)) == .seconds(1), "never shorter than the backoff")
        #expect(policy.delay(after: 1, retryAfter: .seconds(3_600)) == .seconds(10), "capped")
    }

    @Test func transientFailuresAreRetriedAfterEachBackoffOnTheInjectedClock() async throws {
        let clock = ManualClock()
        let attempts = CountedAttempts(failing: [TransientFailure(), TransientFailure()])
        let seen = Locked<[Int]>([])
        let policy = RetryPolicy(attempts: 3, initialDelay: .seconds(1), jitter: .none, clock: clock)
            .onRetry { retry in seen.withLock { $0.append(retry.attempt) } }
        let run = Task { try await policy.run { try attempts.run() } }
        try await clock.waitForSleepers(1)
        #expect(attempts.count == 1)
        clock.advance(by: .milliseconds(999))
        #expect(clock.sleeperCount == 1, "the first backoff is a second")
        clock.advance(by: .milliseconds(1))
        try await clock.waitForSleepers(1)
        #expect(attempts.count == 2)
        clock.advance(by: .seconds(2))
        #expect(try await run.value == "value after 3")
        #expect(seen.withLock { $0 } == [1, 2])
    }

    @Test func aFailureThatIsNotTransientIsThrownAsItIsAfterOneAttempt() async throws {
        let attempts = CountedAttempts(failing: [TransientFailure(isTransient: false)])
        let policy = RetryPolicy(attempts: 5, clock: ManualClock())
        await #expect(throws: TransientFailure(isTransient: false)) { try await policy.run { try attempts.run() } }
        #expect(attempts.count == 1)
    }

    /// A policy of fewer than one attempt tries the load once, as one whose `attempts` is set
    /// to 0 later does; it stopped the process with a precondition failure.
    @Test(arguments: [0, -3])
    func fewerThanOneAttemptIsOne(attempts: Int) async throws {
        let policy = RetryPolicy(attempts: attempts, clock: ManualClock())
        #expect(policy.attempts == 1)
        let counted = CountedAttempts(failing: [TransientFailure()])
        await #expect(throws: (any Error).self) { try await policy.run { try counted.run() } }
        #expect(counted.count == 1)
    }

    @Test func aCancellationAndAnErrorThatSaysNothingAreNeverRetried() async throws {
        struct Opaque: Error {}
        for failure in [CancellationError(), Opaque()] as [any Error] {
            let attempts = CountedAttempts(failing: [failure])
            let policy = RetryPolicy(attempts: 5, clock: ManualClock())
            await #expect(throws: (any Error).self) { try await policy.run { try attempts.run() } }
            #expect(attempts.count == 1)
        }
    }

    @Test func theLastFailureSaysHowManyAttemptsWereMade() async throws {
        let clock = ManualClock()
        let attempts = CountedAttempts(failing: [TransientFailure(), TransientFailure(), TransientFailure()])
        let policy = RetryPolicy(attempts: 3, initialDelay: .seconds(1), jitter: .none, clock: clock)
        let run = Task { try await policy.run { try attempts.run() } }
        for _ in 1...2 {
            try await clock.waitForSleepers(1)
            clock.advance(by: .seconds(60))
        }
        let error = try #require(await #expect(throws: RetriesExhausted.self) { try await run.value })
        #expect(error.attempts == 3)
        #expect(error.lastError as? TransientFailure == TransientFailure())
        #expect("\(error)" == "service unavailable (3 attempts)")
        #expect(attempts.count == 3)
    }

    @Test func cancellingDuringABackoffEndsTheRunAtOnceWithNoFurtherAttempt() async throws {
        let clock = ManualClock()
        let attempts = CountedAttempts(failing: [TransientFailure()])
        let policy = RetryPolicy(attempts: 3, clock: clock)
        let run = Task { try await policy.run { try attempts.run() } }
        try await clock.waitForSleepers(1)
        run.cancel()
        await #expect(throws: CancellationError.self) { try await run.value }
        clock.advance(by: .seconds(3_600))
        #expect(attempts.count == 1)
        #expect(clock.sleeperCount == 0)
    }

    @Test func aWaitOfNoPracticalEndOnTheSystemClockWaitsUntilCancelled() async throws {
        // NB: the standard library's clock traps on a deadline past what an Int64 of seconds
        // holds: `.seconds(Int64.max)` (an app's "no cap", or a server's Retry-After under it)
        // stopped the process as the wait began.
        let (retrying, retried) = AsyncStream<Void>.makeStream()
        let endless = Duration.seconds(Int64.max)
        let policy = RetryPolicy(attempts: 2, initialDelay: endless, maximumDelay: endless, jitter: .none)
            .onRetry { _ in retried.yield() }
        let attempts = CountedAttempts(failing: [TransientFailure()])
        let run = Task { try await policy.run { try attempts.run() } }
        for await _ in retrying { break }
        run.cancel()
        await #expect(throws: CancellationError.self) { try await run.value }
        #expect(attempts.count == 1)
    }

    @Test func aWaitThatEndsAsTheCancellationComesStartsNoFurtherAttempt() async throws {
        let clock = UnhearingClock()
        let attempts = CountedAttempts(failing: [TransientFailure()])
        let policy = RetryPolicy(attempts: 3, clock: clock)
        let run = Task { try await policy.run { try attempts.run() } }
        await clock.sleeping.wait()
        run.cancel()
        clock.wake.resolve(())
        await #expect(throws: CancellationError.self) { try await run.value }
        #expect(attempts.count == 1, "cancelled during the wait, though the wait ended normally")
    }
}

/// A clock whose one wait ends when the test says so, cancelled or not: as a wait ends when a
/// cancellation arrives just as its time comes.
struct UnhearingClock: Clock {
    let sleeping = SettleSignal<Void>()
    let wake = SettleSignal<Void>()

    var now: ContinuousClock.Instant { .now }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        sleeping.resolve(())
        await wake.wait()
    }
}
