import ContentLoading
import ContentLoadingTesting
import KitTestSupport
import Testing

/// Releasing a model cancels its work and finishes its streams; its task never keeps it alive.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct ViewModelReleaseTests {
    @Test func releasedModelDeinitialisesWhileItsLoadIsInFlight() async throws {
        let loader = ControlledLoader<Void, Int>()
        var model: ContentLoadingViewModel<Void, Int>? = ContentLoadingViewModel(load: loader.load)
        weak let released = model
        let states = StreamRecorder(model!.states)
        model!.refresh()
        _ = try await loader.call(0)
        model = nil
        #expect(released == nil, "the in-flight load does not keep the model alive")
        #expect(loader.pendingCalls.isEmpty, "releasing the model cancelled its load")
        #expect(try await states.all().map(\.phase) == [.unloaded, .loading], "the stream finished")
    }

    @Test func awaitedHandleKeepsATemporaryModelUntilItSettles() async throws {
        #expect(await DoublingModel().refresh(2).settled() == .success(4))
    }

    @Test func releasedMultiValueSubclassDeinitialisesWhileObserving() async throws {
        var model: StreamingModel? = StreamingModel()
        weak let released = model
        let contents = StreamRecorder(model!.contents)
        model!.refresh()
        model!.feed.yield([1])
        #expect(try await contents.values(count: 2) == [nil, [1]])
        model = nil
        #expect(released == nil)
        #expect(try await contents.all() == [nil, [1]])
    }

    @Test func overriddenLoadKeepsTheModelOnlyUntilItReturns() async throws {
        let gate = ControlledLoader<Void, Void>(honorsCancellation: false)
        var model: GatedModel? = GatedModel(gate: gate)
        weak let released = model
        let states = StreamRecorder(model!.states)
        model!.refresh()
        let call = try await gate.call(0)
        model = nil
        gate.complete(call, returning: ())
        #expect(try await states.all().map(\.phase) == [.unloaded, .loading], "the late result is not applied")
        #expect(released == nil)
    }
}

/// Thousands of refreshes, cancels and completions in random order against the real model.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct ViewModelRaceTests {
    /// Checks at the moment a value is applied (on the main actor) that it is the latest input.
    final class CheckingModel: ContentLoadingViewModel<Int, Int> {
        var latest: Int?
        var applied = 0
        var staleApplied: [Int] = []

        override func isEmpty(_ output: Int) -> Bool {
            applied += 1
            if output != latest { staleApplied.append(output) }
            return false
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomRefreshesAndCompletionsNeverApplyStaleResults(seed: UInt64) async throws {
        var generator = SeededGenerator(seed: seed)
        let loader = ControlledLoader<Int, Int>(honorsCancellation: false)
        let model = CheckingModel(load: loader.load)
        let recorder = StateRecorder(model)
        var refreshes = 0
        var completedValues = 0
        for step in 0..<3_000 {
            switch Int.random(in: 0..<10, using: &generator) {
            case 0...3:
                model.latest = step
                model.refresh(step)
                refreshes += 1
                _ = try await loader.call(refreshes - 1)
            case 4:
                model.latest = nil
                model.cancel()
                #expect(!model.isLoading)
            default:
                guard let call = loader.pendingCalls.randomElement(using: &generator) else { continue }
                switch Int.random(in: 0..<10, using: &generator) {
                case 0...5:
                    completedValues += 1
                    loader.complete(call, returning: call.input)
                case 6...8: loader.complete(call, throwing: LoadFailure(input: call.input))
                default: loader.complete(call, throwing: CancellationError())
                }
            }
        }
        model.latest = -1
        let last = model.refresh(-1)
        let lastCall = try await loader.call(refreshes)
        for call in loader.pendingCalls where call.index != lastCall.index {
            loader.complete(call, returning: call.input)
        }
        loader.complete(lastCall, returning: -1)
        #expect(await last.settled() == .success(-1), "never stuck in loading")
        #expect(model.staleApplied.isEmpty, "stale values applied: \(model.staleApplied.prefix(10))")
        #expect(model.applied < completedValues, "the run produced stale values to discard")
        let errors = recorder.states.compactMap(\.error)
        #expect(!errors.contains { $0 is CancellationError }, "a cancellation became an error")
        #expect(errors.allSatisfy { ($0 as? LoadFailure) != nil })
    }
}

/// `expectRelease(of:)`: passes when the model goes, fails with a clear error when it is held.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct ExpectReleaseTests {
    @Test func aModelNothingHoldsIsReleased() async throws {
        var model: DoublingModel? = DoublingModel()
        await model!.refresh(1).settled()
        try await expectRelease(of: &model)
        #expect(model == nil)
    }

    @Test func aHeldHandleKeepsTheModelAndTheErrorSaysSo() async throws {
        let loader = ControlledLoader<Void, Int>(honorsCancellation: false)
        var model: ContentLoadingViewModel<Void, Int>? = ContentLoadingViewModel(load: loader.load)
        let handle = model!.refresh()  // a handle keeps its model until the load settles
        _ = try await loader.call(0)
        let error = await #expect(throws: ModelNotReleased.self) {
            try await expectRelease(of: &model, timeout: .milliseconds(100))
        }
        #expect(
            error?.description.hasPrefix("ContentLoadingViewModel<(), Int> was not released within 0.1 seconds") == true
        )
        #expect(error?.description.contains("its load is still running") == false, "a closure load holds no model")
        loader.complete(try await loader.call(0), returning: 1)
        _ = await handle.settled()
    }

    @Test func aSubclassWhoseLoadStillRunsIsNamedAsTheHolder() async throws {
        let gate = ControlledLoader<Void, Void>(honorsCancellation: false)
        var model: GatedModel? = GatedModel(gate: gate)
        model!.refresh()
        let call = try await gate.call(0)
        let error = await #expect(throws: ModelNotReleased.self) {
            try await expectRelease(of: &model, timeout: .milliseconds(100))
        }
        #expect(error?.isLoading == true)
        #expect(
            error?.description.contains(
                "its load is still running, and an overridden load(_:) keeps its model alive until it returns") == true)
        gate.complete(call, returning: ())
    }
}

/// A subclass whose load waits for `gate`: an overridden load, which holds its model while it runs.
private final class GatedModel: ContentLoadingViewModel<Void, Int> {
    let gate: ControlledLoader<Void, Void>
    init(gate: ControlledLoader<Void, Void>) {
        self.gate = gate
        super.init()
    }
    nonisolated override func load(_ input: Void) async throws -> Int {
        try await gate.load(())
        return 1
    }
}
