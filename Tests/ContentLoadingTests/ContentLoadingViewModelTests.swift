import ContentLoading
import ContentLoadingTesting
import KitTestSupport
import Testing

@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct ContentLoadingViewModelTests {
    @Test func subclassOverridingLoadGoesUnloadedLoadingSuccess() async throws {
        let model = DoublingModel()
        let recorder = StateRecorder(model)
        let settled = await model.refresh(21).settled()
        #expect(settled == .success(42))
        #expect(try await recorder.states(count: 3) == [.unloaded, .loading(previous: nil), .success(42)])
        #expect(model.content == 42)
        #expect(!model.isLoading)
    }

    @Test func errorKeepsContentAndClearsOnTheNextValue() async throws {
        let model = DoublingModel()
        await model.refresh(1).settled()
        let failed = await model.refresh(-1).settled()
        #expect(failed == .error(LoadFailure(input: -1), previous: 2))
        #expect(model.content == 2)
        #expect(model.lastError as? LoadFailure == LoadFailure(input: -1))
        await model.refresh(3).settled()
        #expect(model.lastError == nil)
        #expect(model.state == .success(6))
    }

    @Test func latestWinsWhateverOrderLoadsFinishIn() async throws {
        let loader = ControlledLoader<Int, Int>(honorsCancellation: false)
        let model = ContentLoadingViewModel<Int, Int>(load: loader.load)
        let recorder = StateRecorder(model)
        model.refresh(1)
        let stale = try await loader.call(0)
        let second = model.refresh(2)
        let latest = try await loader.call(1)
        loader.complete(stale, returning: 1)
        loader.complete(latest, returning: 2)
        #expect(await second.settled() == .success(2))
        // The stale result finished first; had it been applied the recorder would show it.
        model.refresh(3)
        try await loader.complete(loader.call(2), returning: 3)
        #expect(
            try await recorder.states(count: 5) == [
                .unloaded, .loading(previous: nil), .success(2), .loading(previous: 2), .success(3),
            ])
    }

    @Test func loadSupersededBeforeItBeginsNeverCallsItsLoader() async throws {
        let loader = ControlledLoader<Int, Int>()
        let model = ContentLoadingViewModel<Int, Int>(load: loader.load)
        model.refresh(1)
        model.refresh(2)
        let latest = model.refresh(3)
        try await loader.complete(loader.call(0), returning: 3)
        #expect(await latest.settled() == .success(3))
        #expect(loader.calls.map(\.input) == [3])
    }

    @Test func cancelReturnsToTheSettledStateAndIsNeverAnError() async throws {
        let loader = ControlledLoader<Int, Int>()
        let model = ContentLoadingViewModel<Int, Int>(load: loader.load)
        let errors = StreamRecorder(model.errors)
        let first = model.refresh(1)
        try await loader.complete(loader.call(0), returning: 1)
        await first.settled()
        let handle = model.refresh(2)
        _ = try await loader.call(1)
        model.cancel()
        #expect(model.state == .success(1))
        #expect(await handle.settled() == .success(1))
        #expect(loader.pendingCalls.isEmpty, "the running load was cancelled")
        #expect(model.lastError == nil)
        #expect(errors.elements.isEmpty)
    }

    @Test func producerThatFinishesWithoutAValueSettlesEmpty() async throws {
        let model = StreamingModel()
        model.refresh()
        model.feed.finish()
        #expect(await model.refresh().settled() == .empty)
        #expect(!model.isLoading)
    }

    @Test func selfCancellingLoadIsNotAnError() async throws {
        let model = ContentLoadingViewModel<Void, Int> { throw CancellationError() }
        #expect(await model.refresh().settled() == .unloaded)
        #expect(model.lastError == nil)
    }

    @Test func multiValueProducerReentersTheMachinePerValueAndErrorKeepsContent() async throws {
        let model = StreamingModel()
        let recorder = StateRecorder(model)
        model.refresh()
        model.feed.yield([1])
        model.feed.yield([])
        model.feed.yield([2, 3])
        model.feed.finish(throwing: LoadFailure(input: 9))
        #expect(
            try await recorder.states(count: 6) == [
                .unloaded, .loading(previous: nil), .success([1]), .empty, .success([2, 3]),
                .error(LoadFailure(input: 9), previous: [2, 3]),
            ])
        #expect(model.content == [2, 3])
    }

    @Test func isEmptyDefaultsToCollectionEmptiness() async throws {
        let list = ContentLoadingViewModel<Void, [Int]> { [] }
        let text = ContentLoadingViewModel<Void, String> { "" }
        let number = ContentLoadingViewModel<Void, Int> { 0 }
        #expect(await list.refresh().settled() == .empty)
        #expect(await text.refresh().settled() == .empty)
        #expect(await number.refresh().settled() == .success(0))
    }

    @Test func everyStateSubscriberSeesTheCurrentStateThenEveryTransition() async throws {
        let model = DoublingModel()
        let early = StateRecorder(model)
        let alsoEarly = StateRecorder(model)
        await model.refresh(1).settled()
        let late = StateRecorder(model)
        await model.refresh(2).settled()
        let expected: [ContentLoadingState<Int>] = [
            .unloaded, .loading(previous: nil), .success(2), .loading(previous: 2), .success(4),
        ]
        #expect(try await early.states(count: 5) == expected)
        #expect(try await alsoEarly.states(count: 5) == expected)
        #expect(try await late.states(count: 3) == Array(expected.suffix(3)))
    }

    @Test func contentAndErrorStreamsReportChanges() async throws {
        let model = DoublingModel()
        let contents = StreamRecorder(model.contents)
        let errors = StreamRecorder(model.errors)
        await model.refresh(1).settled()
        await model.refresh(-5).settled()
        await model.refresh(2).settled()
        #expect(try await contents.values(count: 3) == [nil, 2, 4])
        #expect(try await errors.values(count: 1).map { $0 as? LoadFailure } == [LoadFailure(input: -5)])
    }

    @Test func joinPolicyServesEveryRefreshWithOneLoad() async throws {
        let loader = ControlledLoader<Int, Int>()
        let model = ContentLoadingViewModel<Int, Int>(refreshPolicy: .joinInFlight, load: loader.load)
        let first = model.refresh(1)
        let joined = model.refresh(2)
        try await loader.complete(loader.call(0), returning: 1)
        #expect(await first.settled() == .success(1))
        #expect(await joined.settled() == .success(1))
        #expect(loader.calls.count == 1)
    }

    @Test func enqueuePolicyRunsTheNewestQueuedInputNext() async throws {
        let loader = ControlledLoader<Int, Int>()
        let model = ContentLoadingViewModel<Int, Int>(refreshPolicy: .enqueueLatest, load: loader.load)
        let first = model.refresh(1)
        let replaced = model.refresh(2)
        let newest = model.refresh(3)
        try await loader.complete(loader.call(0), returning: 1)
        #expect(await first.settled() == .success(1))
        let next = try await loader.call(1)
        #expect(next.input == 3)
        loader.complete(next, returning: 3)
        #expect(await replaced.settled() == .success(3))
        #expect(await newest.settled() == .success(3))
        #expect(loader.calls.count == 2)
    }

    @Test func awaitingTaskCancelledReturnsTheCurrentStateWhileTheLoadGoesOn() async throws {
        let loader = ControlledLoader<Int, Int>()
        let model = ContentLoadingViewModel<Int, Int>(load: loader.load)
        let handle = model.refresh(1)
        _ = try await loader.call(0)
        let waiter = Task { await handle.settled() }
        waiter.cancel()
        #expect(await waiter.value == .loading(previous: nil))
        #expect(model.isLoading)
        try await loader.complete(loader.call(0), returning: 1)
        #expect(await handle.settled() == .success(1))
    }

    @Test func awaitingTaskCancelledWhileItWaitsReturnsTheCurrentState() async throws {
        let loader = ControlledLoader<Int, Int>()
        let model = ContentLoadingViewModel<Int, Int>(load: loader.load)
        let handle = model.refresh(1)
        let waiter = Task { await handle.settled() }
        // NB: the waiter's first job was queued on the main actor before this task comes back
        // from the yield (which goes through the global executor), so the waiter waits by then.
        await Task.yield()
        waiter.cancel()
        #expect(await waiter.value == .loading(previous: nil))
        try await loader.complete(loader.call(0), returning: 1)
        #expect(await handle.settled() == .success(1))
    }
}
