import ContentLoading
import ContentLoadingSupport
import ContentLoadingTesting
import KitTestSupport
import Testing

/// A single-value load's value and its end reach the model together, as `ContentProducer.load`
/// says: code that reacts to the value never sees the load still running.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct SingleValueCompletionTests {
    let loader = ControlledLoader<Int, Int>()

    /// A model that records each state `stateDidChange` is told of, and refreshes with 2 once
    /// when it is told of `.success(1)`.
    final class RefreshingOnValueModel: ContentLoadingViewModel<Int, Int> {
        var told: [ContentLoadingState<Int>] = []
        var chained: RefreshHandle<Int>?

        override func stateDidChange(from oldState: ContentLoadingState<Int>, to newState: ContentLoadingState<Int>) {
            told.append(newState)
            guard newState == .success(1), chained == nil else { return }
            chained = refresh(2)
        }
    }

    @Test func aRefreshWhenTheValueArrivesStartsALoadInsteadOfJoiningTheEndedOne() async throws {
        let model = RefreshingOnValueModel(refreshPolicy: .joinInFlight, load: loader.load)
        model.refresh(1)
        loader.complete(try await loader.call(0), returning: 1)
        let second = try await loader.call(1)
        // NB: had the refresh joined the load whose value it was told of, this call never came.
        #expect(second.input == 2, "the refresh made in stateDidChange loads its own input")
        loader.complete(second, returning: 2)
        #expect(await model.chained?.settled() == .success(2))
    }

    @Test func aQueuedRefreshStartsOnlyAfterTheValueIsPublished() async throws {
        let model = RefreshingOnValueModel(refreshPolicy: .enqueueLatest, load: loader.load)
        let first = model.refresh(1)
        let queued = model.refresh(3)
        loader.complete(try await loader.call(0), returning: 1)
        #expect(await first.settled() == .success(1))
        let next = try await loader.call(1)
        #expect(next.input == 2, "the refresh made in stateDidChange replaced the queued input")
        #expect(model.told.prefix(3) == [.loading(previous: nil), .success(1), .loading(previous: 1)])
        loader.complete(next, returning: 2)
        #expect(await queued.settled() == .success(2))
    }
}
