import ContentLoading
import ContentLoadingSupport
import ContentLoadingTesting
import KitTestSupport
import Observation
import Testing

/// What a task awaiting a refresh finds when `settled()` returns: the settled state already
/// published to Observation and `stateDidChange`, on the main actor (where such a waiter is
/// resumed before the model publishes) and off it (where it is resumed after).
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct SettledOrderTests {
    /// A model that records every state `stateDidChange` is told of, readable from any task.
    final class RecordingModel: ContentLoadingViewModel<Int, Int> {
        nonisolated let record = Locked<[ContentLoadingState<Int>]>([])
        var told: [ContentLoadingState<Int>] { record.withLock { $0 } }

        override func stateDidChange(from oldState: ContentLoadingState<Int>, to newState: ContentLoadingState<Int>) {
            record.withLock { $0.append(newState) }
        }
    }

    let loader = ControlledLoader<Int, Int>()

    @Test func onTheMainActorTheSettledStateIsPublishedWhenSettledReturns() async throws {
        let model = RecordingModel(load: loader.load)
        let handle = model.refresh(1)
        let observed = Locked(false)
        withObservationTracking({ _ = model.state }, onChange: { observed.withLock { $0 = true } })
        loader.complete(try await loader.call(0), returning: 10)
        let state = await handle.settled()
        #expect(state == .success(10))
        #expect(model.state == state)
        #expect(model.told == [.loading(previous: nil), .success(10)])
        #expect(observed.withLock { $0 }, "Observation was told before the waiter went on")
    }

    @Test func offTheMainActorTheSettledStateIsPublishedWhenSettledReturns() async throws {
        let model = RecordingModel(load: loader.load)
        let handle = model.refresh(1)
        // NB: the waiter reads what `stateDidChange` was told the moment `settled()` returns,
        // off the main actor. Were it resumed before the publishing, this would fail only when
        // its thread ran before the main actor reached `stateDidChange` (a race the main actor
        // usually wins); resumed after it, as it is, this holds every time.
        let waiter = Task.detached { (await handle.settled(), model.record.withLock { $0.last }) }
        loader.complete(try await loader.call(0), returning: 10)
        let (state, toldThen) = await waiter.value
        #expect(state == .success(10))
        #expect(toldThen == state)
    }

    @Test func aWaiterOnTheMainActorGetsTheStateItsLoadSettledIn() async throws {
        // NB: `stateDidChange` starts another refresh the moment the first value arrives; the
        // first handle still returns the state its load settled in.
        let model = ChainingModel(load: loader.load)
        let first = model.refresh(1)
        loader.complete(try await loader.call(0), returning: 10)
        #expect(await first.settled() == .success(10))
        #expect(model.state == .loading(previous: 10), "the chained refresh runs")
        model.cancel()
    }

    @Test func aWaiterOffTheMainActorGetsTheStateItsLoadSettledIn() async throws {
        // NB: as above, off the main actor: the waiter used to be resumed by the publish of the
        // chained refresh, with its `loading` state.
        let model = ChainingModel(load: loader.load)
        let first = model.refresh(1)
        let waiter = Task.detached { await first.settled() }
        loader.complete(try await loader.call(0), returning: 10)
        #expect(await waiter.value == .success(10))
        #expect(model.state == .loading(previous: 10), "the chained refresh runs")
        model.cancel()
    }

    /// A waiter that starts waiting only after its load settled (and another refresh started)
    /// gets the state its load settled in too, on the main actor or off it. (It got the state
    /// then current, the chained refresh's `loading`: the off-main test above failed so once
    /// under TSan, when its waiter started late.)
    @Test func aWaiterThatStartsAfterItsLoadSettledGetsTheStateItSettledIn() async throws {
        let model = ChainingModel(load: loader.load)
        let first = model.refresh(1)
        loader.complete(try await loader.call(0), returning: 10)
        _ = try await loader.call(1)
        #expect(model.state == .loading(previous: 10), "the chained refresh runs")
        #expect(first.isSettled)
        #expect(await Task.detached { await first.settled() }.value == .success(10))
        #expect(await first.settled() == .success(10))
        model.cancel()
    }

    /// A model that refreshes again when its first value arrives.
    final class ChainingModel: ContentLoadingViewModel<Int, Int> {
        override func stateDidChange(from oldState: ContentLoadingState<Int>, to newState: ContentLoadingState<Int>) {
            if newState == .success(10) { refresh(2) }
        }
    }
}
