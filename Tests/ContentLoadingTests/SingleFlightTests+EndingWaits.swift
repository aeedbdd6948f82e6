import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// Waits for the end that come while an operation is ending (its `ended` step runs): they
/// return once the step has told what it tells, as a wait that came before does.
extension SingleFlightTests {
    @Test func aWaitThatComesWhileTheEndedStepRunsReturnsAfterIt() async throws {
        let log = Locked<[String]>([])
        // NB: weak, or the step and the flight would hold each other (a leak ASan reports).
        let flight = Locked<WeakReference<SingleFlight<String>>?>(nil)
        let wait = Locked<Task<Void, Never>?>(nil)
        let ended: @Sendable (String) async -> Void = { value in
            guard let flight = flight.withLock({ $0?.object }) else { return }
            wait.withLock { $0 = Self.waitRegisteredOrOver(flight, log: log) }
            await Self.untilRegisteredOrOver(flight, log: log)
            log.withLock { $0.append("the step told \(value)") }
        }
        let first = SingleFlight(ended: ended)
        flight.withLock { $0 = WeakReference(first) }
        #expect(try await first.run { "a failure" } == "a failure")
        try await #require(wait.withLock { $0 }).value
        wait.withLock { $0 = nil }
        #expect(log.withLock { $0 } == ["the step told a failure", "the wait returned"])
    }

    @Test func aWaitThatComesWhileTheEndedStepRunsWaitsForTheOperationQueuedMeanwhile() async throws {
        let log = Locked<[String]>([])
        // NB: weak, or the step and the flight would hold each other (a leak ASan reports).
        let flight = Locked<WeakReference<SingleFlight<String>>?>(nil)
        let started = Locked<(wait: Task<Void, Never>, caller: Task<String, any Error>)?>(nil)
        let loader = ControlledLoader<Int, String>()
        let ended: @Sendable (String) async -> Void = { value in
            guard value == "first", let flight = flight.withLock({ $0?.object }) else { return }
            // A caller comes while the step runs (a refresh on a failure event), then a wait.
            let caller = Task { try await flight.run { (try? await loader.load(1)) ?? "cancelled" } }
            while flight.waitingCallers < 1 { await Task.yield() }
            let wait = Self.waitRegisteredOrOver(flight, log: log)
            started.withLock { $0 = (wait, caller) }
            await Self.untilRegisteredOrOver(flight, log: log)
        }
        let first = SingleFlight(ended: ended)
        flight.withLock { $0 = WeakReference(first) }
        #expect(try await first.run { "first" } == "first")
        let (wait, caller) = try #require(started.withLock { $0 })
        started.withLock { $0 = nil }
        let call = try await loader.call(0)
        #expect(first.waitingForEnd == 1, "the wait waits for the next operation: \(log.withLock { $0 })")
        log.withLock { $0.append("the next operation ends") }
        #expect(loader.complete(call, returning: "second"))
        #expect(try await caller.value == "second")
        await wait.value
        #expect(log.withLock { $0 } == ["the next operation ends", "the wait returned"])
        #expect(!first.isRunning)
    }

    /// A task that waits until `flight` is idle, then logs "the wait returned".
    private static func waitRegisteredOrOver(_ flight: SingleFlight<String>, log: Locked<[String]>) -> Task<Void, Never>
    {
        Task {
            await flight.waitUntilIdle()
            log.withLock { $0.append("the wait returned") }
        }
    }

    /// Until the wait is registered, or (as it did when it was not) has returned.
    private static func untilRegisteredOrOver(_ flight: SingleFlight<String>, log: Locked<[String]>) async {
        while flight.waitingForEnd < 1, !log.withLock({ $0.contains("the wait returned") }) { await Task.yield() }
    }
}
