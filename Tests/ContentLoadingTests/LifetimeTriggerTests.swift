import ContentLoading
import ContentLoadingTesting
import KitTestSupport
import Testing

@Suite struct LifetimeTriggerTests {
    @Test func decisionTable() {
        let trigger = LifetimeTrigger(refreshOn: .willAppear, unlessYoungerThan: .seconds(60), cancelOn: .didDisappear)
        #expect(trigger.decision(for: .willAppear, contentAge: nil, isLoading: false) == .refresh)
        #expect(trigger.decision(for: .willAppear, contentAge: .seconds(61), isLoading: false) == .refresh)
        #expect(trigger.decision(for: .willAppear, contentAge: .seconds(59), isLoading: false) == .none)
        #expect(trigger.decision(for: .willAppear, contentAge: nil, isLoading: true) == .none)
        #expect(trigger.decision(for: .didDisappear, contentAge: nil, isLoading: true) == .cancel)
        #expect(trigger.decision(for: .didDisappear, contentAge: nil, isLoading: false) == .none)
        #expect(trigger.decision(for: .didLoad, contentAge: nil, isLoading: false) == .none)
    }
}

@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct ViewModelLifetimeTriggerTests {
    @Test func refreshesOnEveryTriggerEventUnlessContentIsFresh() async throws {
        let clock = ManualClock()
        let loader = ControlledLoader<Void, Int>()
        let trigger = LifetimeTrigger(refreshOn: .willAppear, unlessYoungerThan: .seconds(60))
        let model = ContentLoadingViewModel<Void, Int>(lifetimeTrigger: trigger, clock: clock, load: loader.load)
        let recorder = StateRecorder(model)
        model.viewLifetime = .didLoad
        #expect(!model.isLoading)
        model.viewLifetime = .willAppear
        #expect(model.isLoading)
        try await loader.complete(loader.call(0), returning: 1)
        #expect(try await recorder.states(count: 3).last == .success(1))
        clock.advance(by: .seconds(30))
        model.viewLifetime = .willAppear
        #expect(!model.isLoading, "content 30 s old is fresh")
        clock.advance(by: .seconds(31))
        #expect(model.contentAge == .seconds(61))
        model.viewLifetime = .willAppear
        #expect(model.isLoading)
        try await loader.complete(loader.call(1), returning: 2)
        #expect(try await recorder.states(count: 5).last == .success(2))
        #expect(model.contentAge == .zero)
    }

    @Test func cancelsOnTheCancelEventWithoutAnError() async throws {
        let loader = ControlledLoader<Void, Int>()
        let model = ContentLoadingViewModel<Void, Int>(lifetimeTrigger: .everyAppearance, load: loader.load)
        model.viewLifetime = .willAppear
        _ = try await loader.call(0)
        model.viewLifetime = .didDisappear
        #expect(model.state == .unloaded)
        #expect(model.lastError == nil)
        #expect(loader.pendingCalls.isEmpty)
    }

    @Test func nonVoidInputWaitsForAnInputThenReusesTheLatest() async throws {
        let loader = ControlledLoader<String, Int>()
        let model = ContentLoadingViewModel<String, Int>(lifetimeTrigger: .everyAppearance, load: loader.load)
        model.viewLifetime = .willAppear
        #expect(!model.isLoading, "no input yet, so nothing to load")
        let first = model.refresh("swift")
        try await loader.complete(loader.call(0), returning: 1)
        await first.settled()
        model.viewLifetime = .willAppear
        #expect(try await loader.call(1).input == "swift")
    }

    @Test func initialInputServesLifetimeRefreshesBeforeAnyRefresh() async throws {
        let loader = ControlledLoader<String, Int>()
        let model = ContentLoadingViewModel<String, Int>(
            lifetimeTrigger: .everyAppearance, initialInput: "start", load: loader.load)
        model.viewLifetime = .willAppear
        #expect(try await loader.call(0).input == "start")
    }
}

/// A first load that defers `loading` is `unloaded` while it looks in its cache: lifetime
/// events count it as running all the same.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct DeferredLoadLifetimeTests {
    @Test func theCancelEventStopsAFirstLoadThatShowsNothingYet() async throws {
        let loader = ControlledLoader<Int, Int>()
        let model = CacheFirstModel(loader: loader, lifetimeTrigger: .everyAppearance, initialInput: 1)
        model.viewLifetime = .willAppear
        _ = try await loader.call(0)
        #expect(model.state == .unloaded, "the load defers `loading`")
        model.viewLifetime = .didDisappear
        #expect(await yieldUntil { loader.pendingCalls.isEmpty }, "the disappearance cancelled the load")
        #expect(model.state == .unloaded)
        #expect(model.lastError == nil)
    }

    @Test func anAppearanceWhileAFirstLoadShowsNothingYetStartsNoOther() async throws {
        let loader = ControlledLoader<Int, Int>()
        let model = CacheFirstModel(loader: loader, lifetimeTrigger: .everyAppearance, initialInput: 1)
        model.viewLifetime = .willAppear
        let call = try await loader.call(0)
        model.viewLifetime = .willAppear
        loader.complete(call, returning: 10)
        #expect(await yieldUntil { model.state == .success(10) })
        #expect(loader.calls.count == 1, "the running load brings the content")
    }
}

/// A model that defers `loading` and takes its one value from the test's loader.
@MainActor
private final class CacheFirstModel: ContentLoadingViewModel<Int, Int> {
    let loader: ControlledLoader<Int, Int>

    init(loader: ControlledLoader<Int, Int>, lifetimeTrigger: LifetimeTrigger, initialInput: Int) {
        self.loader = loader
        super.init(lifetimeTrigger: lifetimeTrigger, initialInput: initialInput)
    }

    override var defersLoading: Bool { true }
    override func producer(for input: Int) -> ContentProducer<Int> {
        let loader = loader
        return .deferringLoading { send, _ in await send(.value(try await loader.load(input))) }
    }
}
