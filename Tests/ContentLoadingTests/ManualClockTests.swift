import ContentLoadingTesting
import KitTestSupport
import Testing

@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct ManualClockTests {
    @Test func sleepersWakeOnlyWhenTimeReachesTheirDeadline() async throws {
        let clock = ManualClock()
        let events = AsyncStream<Duration>.makeStream()
        let sleeper = Task {
            try await clock.sleep(until: ManualClock.Instant(offset: .seconds(10)))
            events.continuation.yield(clock.now.offset)
        }
        clock.advance(by: .seconds(4))
        #expect(clock.now.offset == .seconds(4))
        // The sleeper may register before or after an advance; its deadline is absolute.
        clock.advance(by: .seconds(6))
        var iterator = events.stream.makeAsyncIterator()
        let wokeAt = await iterator.next()
        #expect(wokeAt == .seconds(10))
        try await sleeper.value
    }

    @Test func cancelledSleeperThrowsCancellation() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(until: ManualClock.Instant(offset: .seconds(1))) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }

    @Test func instantsMeasureDurations() {
        let clock = ManualClock()
        let start = clock.now
        clock.advance(by: .milliseconds(1500))
        #expect(start.duration(to: clock.now) == .milliseconds(1500))
        #expect(start < clock.now)
    }
}
