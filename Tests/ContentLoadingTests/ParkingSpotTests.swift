import ContentLoadingSupport
import KitTestSupport
import Testing

/// A task parked on the main actor goes on, on the main actor, once its spot is released,
/// whenever and wherever the release happens.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct ParkingSpotTests {
    /// The indexes of the waiters that went on, in order.
    final class Log {
        var entries: [Int] = []
    }

    @Test func aSpotReleasedBeforeTheWaitLetsTheTaskThroughAtOnce() async {
        let spot = ParkingSpot()
        spot.release()
        await spot.wait()
        MainActor.preconditionIsolated("a parked task goes on on the main actor")
    }

    @Test func aParkedTaskGoesOnOnTheMainActorOnlyAfterItsRelease() async {
        let spot = ParkingSpot()
        let log = Log()
        let waiter = Task {
            await spot.wait()
            MainActor.preconditionIsolated("a parked task goes on on the main actor")
            log.entries.append(1)
        }
        // NB: the waiter's first job was queued on the main actor before this task comes back
        // from the yield (which goes through the global executor), so it has parked by then.
        await Task.yield()
        log.entries.append(0)
        await Task.detached { spot.release() }.value
        await waiter.value
        #expect(log.entries == [0, 1])
    }

    @Test func aSpotIsUsedAgainOnceItsWaitReturned() async {
        let spot = ParkingSpot()
        let log = Log()
        for round in 0..<3 {
            let waiter = Task {
                await spot.wait()
                log.entries.append(10 * round + 1)
            }
            await Task.yield()
            log.entries.append(10 * round)
            spot.release()
            await waiter.value
            if round == 1 {
                spot.release()  // NB: released before the wait, this time.
                await spot.wait()
                log.entries.append(100)
            }
        }
        #expect(log.entries == [0, 1, 10, 11, 100, 20, 21], "each wait went on after its own release")
    }

    @Test func eachParkedTaskGoesOnWhenItsOwnSpotIsReleased() async {
        let spots = (0..<20).map { _ in ParkingSpot() }
        let log = Log()
        let waiters = spots.enumerated().map { index, spot in
            Task {
                await spot.wait()
                log.entries.append(index)
            }
        }
        await Task.yield()
        for spot in spots.reversed() { spot.release() }
        for waiter in waiters { await waiter.value }
        #expect(log.entries == Array((0..<20).reversed()), "released jobs run in the order of their release")
    }
}
