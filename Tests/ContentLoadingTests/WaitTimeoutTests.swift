import ContentLoading
import ContentLoadingTesting
import KitTestSupport
import Testing

/// Every wait of the testing tools ends: what never happens fails the test with a message
/// naming what was awaited, instead of hanging the suite.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct WaitTimeoutTests {
    @Test func aCallThatIsNeverMadeTimesOutNamingTheCallsMade() async throws {
        let loader = ControlledLoader<String, Int>()
        let model = ContentLoadingViewModel<String, Int>(load: loader.load)
        model.refresh("a")
        let first = try await loader.call(0)
        #expect(first.input == "a")
        let error = await #expect(throws: WaitTimeout.self) { try await loader.call(1, timeout: .milliseconds(50)) }
        #expect(
            error?.description
                == #"waited 0.05 seconds for call 1 of ControlledLoader<String, Int>; 1 call made: 0 "a""#)
        loader.complete(first, returning: 1)
    }

    @Test func sleepsThatNeverBeginTimeOutNamingTheClocksState() async throws {
        let clock = ManualClock()
        clock.advance(by: .seconds(3))
        let error = await #expect(throws: WaitTimeout.self) {
            try await clock.waitForSleepers(2, timeout: .milliseconds(50))
        }
        #expect(error?.description == "waited 0.05 seconds for 2 sleeps on the ManualClock; 0 waiting at 3.0 seconds")
    }

    @Test func aSleepThatBeganIsFoundWithinTheTimeout() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(1))) }
        try await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        try await sleeper.value
    }

    @Test func aRefreshThatNeverSettlesTimesOutNamingTheState() async throws {
        let loader = ControlledLoader<String, Int>()
        let model = ContentLoadingViewModel<String, Int>(load: loader.load)
        let handle = model.refresh("a")
        let call = try await loader.call(0)
        let error = await #expect(throws: WaitTimeout.self) { try await handle.settled(timeout: .milliseconds(50)) }
        #expect(
            error?.description
                == "waited 0.05 seconds for the refresh to settle; the model's state is loading(previous: nil)")
        loader.complete(call, returning: 7)
        #expect(try await handle.settled(timeout: WaitTimeout.defaultTimeout) == .success(7))
    }

    @Test func aTimedWaitEndsWithItsTasksCancellation() async throws {
        let loader = ControlledLoader<String, Int>()
        let waiter = Task { try await loader.call(0) }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
    }
}
