import ContentLoading
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import Testing

/// The samples of the "Testing your loaders" article and of ``ManualClock/waitForSleepers(_:timeout:)``, as
/// they are written there, compiled and run: a sample that hangs or fails is a test failure.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct TestingArticleSamplesTests {
    @Test func loadsThatFinishWhenTheTestSays() async throws {
        // NB: this loader's calls ignore cancellation, as work that cannot stop does.
        let loader = ControlledLoader<String, [Int]>(honorsCancellation: false)
        let model = ContentLoadingViewModel<String, [Int]>(load: loader.load)
        model.refresh("a")
        let a = try await loader.call(0)  // "a" is loading
        let b = model.refresh("b")  // latest wins: "a" is cancelled
        loader.complete(try await loader.call(1), returning: [2])
        #expect(try await b.settled(timeout: .seconds(5)) == .success([2]))
        loader.complete(a, returning: [1])  // too late: never shown
        #expect(model.state == .success([2]))
    }

    /// A 503: worth trying again (only a transient `RetryableError` is retried).
    struct ServiceUnavailable: RetryableError { var isTransient: Bool { true } }

    @Test func timeByHand() async throws {
        let clock = ManualClock()
        let loader = ControlledLoader<Void, [Int]>()
        let model = ContentLoadingViewModel<Void, [Int]>(
            retry: RetryPolicy(attempts: 3, initialDelay: .seconds(1), jitter: .none, clock: clock), load: loader.load)
        let refresh = model.refresh()
        loader.complete(try await loader.call(0), throwing: ServiceUnavailable())
        try await clock.waitForSleepers(1)  // the first backoff waits
        #expect(model.state == .loading(previous: nil))
        clock.advance(by: .seconds(1))  // the second attempt starts
        loader.complete(try await loader.call(1), returning: [1])
        #expect(try await refresh.settled(timeout: .seconds(5)) == .success([1]))
    }

    /// `ManualClock.waitForSleepers(_:timeout:)`'s example, in a main-actor test.
    @Test func sleepersInAMainActorTest() async throws {
        let clock = ManualClock()
        let api = ContactsAPI()
        let retry = RetryPolicy(attempts: 2, initialDelay: .seconds(1), jitter: .none, clock: clock)
        let load = Task { try await retry.run { try await api.contacts() } }
        try await clock.waitForSleepers(1)  // the first attempt failed; its backoff waits
        clock.advance(by: .seconds(1))
        #expect(try await load.value == ["second attempt"])
    }

    /// Fails its first call as a busy server does, then answers.
    final class ContactsAPI: Sendable {
        private let calls = Locked(0)
        func contacts() async throws -> [String] {
            let call = calls.withLock { count in
                count += 1
                return count
            }
            if call == 1 { throw ServiceUnavailable() }
            return ["second attempt"]
        }
    }
}
