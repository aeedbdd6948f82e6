import ContentLoading
import ContentLoadingTesting
import KitTestSupport
import Testing

/// The recorders' waits end: on the elements, on the stream's end, on a timeout (naming what
/// was recorded) or on cancellation; never by hanging the suite.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct StreamRecorderTests {
    @Test func aWaitForElementsThatNeverComeFailsListingWhatWasRecorded() async throws {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let recorder = StreamRecorder(stream)
        continuation.yield(1)
        continuation.yield(2)
        _ = try await recorder.values(count: 2)
        let error = await #expect(throws: RecorderTimeout.self) {
            try await recorder.values(count: 3, timeout: .milliseconds(50))
        }
        #expect(error?.recorded == ["1", "2"])
        #expect(error?.description == "waited 0.05 seconds for 3 elements; 2 recorded: [1, 2]")
        continuation.finish()
    }

    /// A count below 1 asks for nothing: it returns none at once (it trapped taking a prefix
    /// of a negative length).
    @Test(arguments: [0, -1, Int.min])
    func aCountBelowOneReturnsNothingAtOnce(count: Int) async throws {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let recorder = StreamRecorder(stream)
        continuation.yield(1)
        #expect(try await recorder.values(count: count, timeout: .seconds(3600)).isEmpty)
        #expect(try await recorder.next() == 1, "nothing was taken")
        continuation.finish()
    }

    @Test func aCancelledWaitThrowsCancellationAtOnce() async throws {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let recorder = StreamRecorder(stream)
        let waiting = Task { try await recorder.values(count: 1, timeout: .seconds(3600)) }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        continuation.finish()
    }

    /// Made from the model, the recorder holds every state by the time an awaited refresh
    /// returns, as `ContentLoadingPhase`'s documentation reads it: no wait needed.
    @Test func aModelsRecorderHoldsEveryStateWhenTheAwaitedRefreshReturns() async throws {
        let model = DoublingModel()
        let recorder = StateRecorder(model)
        for input in [1, -1, 2] {
            await model.refresh(input).completed()
        }
        #expect(
            recorder.states == [
                .unloaded, .loading(previous: nil), .success(2), .loading(previous: 2),
                .error(LoadFailure(input: -1), previous: 2), .loading(previous: 2), .success(4),
            ])
        #expect(try await recorder.states(count: 7) == recorder.states)
    }

    @Test func aCancelledStatesWaitReturnsToo() async throws {
        let model = DoublingModel()
        let recorder = StateRecorder(model)
        let waiting = Task { try await recorder.phases(count: 10, timeout: .seconds(3600)) }
        _ = try await recorder.states(count: 1)
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }

    @Test func nextNeverSkipsAnElementThatArrivedBeforeTheCall() async throws {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let recorder = StreamRecorder(stream)
        continuation.yield(1)
        continuation.yield(2)
        _ = try await recorder.values(count: 2)  // both arrived before the first `next`
        #expect(try await recorder.next() == 1)
        #expect(try await recorder.next() == 2)
        continuation.finish()
        #expect(try await recorder.next() == nil, "the stream finished")
    }

    @Test func triggerSuspendThenNextGetsTheStateTheTriggerMade() async throws {
        let model = DoublingModel()
        let recorder = StateRecorder(model)
        #expect(try await recorder.next() == .unloaded)
        await model.refresh(2).settled()  // the trigger, then a suspension: loading and success arrive
        #expect(try await recorder.next()?.phase == .loading)
        #expect(try await recorder.next() == .success(4))
    }

    @Test func allReturnsEverythingOnceTheStreamFinishes() async throws {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let recorder = StreamRecorder(stream)
        for element in 1...3 { continuation.yield(element) }
        continuation.finish()
        #expect(try await recorder.all() == [1, 2, 3])
        #expect(recorder.isFinished)
    }
}
