import ContentLoading
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// The example of ``ManualClock/waitForSleepers(_:timeout:)``, as written there, compiled and
/// run. (The articles' samples are compiled and run by the DocSamples package.)
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct ManualClockSampleTests {
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

    /// A 503: worth trying again.
    struct ServiceUnavailable: RetryableError { var isTransient: Bool { true } }

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
