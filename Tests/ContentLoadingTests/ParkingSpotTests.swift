import ContentLoadingSupport
import Testing

/// A task parked on the main actor goes on, on the main actor, with the value it is released
/// with, whenever and wherever the release happens.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct ParkingSpotTests {
    @Test func aSpotReleasedBeforeTheWaitLetsTheTaskThroughAtOnce() async {
        let spot = ParkingSpot<Int>()
        spot.release(with: 1)
        #expect(await spot.wait() == 1)
    }

    @Test func aParkedTaskGoesOnOnTheMainActorWithItsValue() async {
        let spot = ParkingSpot<Int>()
        let waiter = Task {
            let value = await spot.wait()
            MainActor.preconditionIsolated("a parked task goes on on the main actor")
            return value
        }
        // NB: the waiter's first job was queued on the main actor before this task comes back
        // from the yield (which goes through the global executor), so it has parked by then.
        await Task.yield()
        await Task.detached { spot.release(with: 7) }.value
        #expect(await waiter.value == 7)
    }

    @Test func anOptionalValueCanBeNil() async {
        let spot = ParkingSpot<Int?>()
        let waiter = Task { await spot.wait() }
        await Task.yield()
        spot.release(with: nil)
        #expect(await waiter.value == .some(nil))
    }

    @Test func eachParkedTaskGetsTheValueOfItsOwnSpot() async {
        let spots = (0..<20).map { _ in ParkingSpot<Int>() }
        let waiters = spots.map { spot in Task { await spot.wait() } }
        await Task.yield()
        for (index, spot) in spots.enumerated().reversed() { spot.release(with: index) }
        var values: [Int] = []
        for waiter in waiters { values.append(await waiter.value) }
        #expect(values == Array(0..<20))
    }
}
