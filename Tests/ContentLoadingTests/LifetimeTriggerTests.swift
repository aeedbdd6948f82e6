import ContentLoading
import ContentLoadingTesting
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
@Suite(.timeLimit(.minutes(1)))
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
