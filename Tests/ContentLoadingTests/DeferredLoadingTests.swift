import ContentLoading
import ContentLoadingTesting
import Testing

private typealias Machine = ContentLoadingStateMachine<Int, Int>

/// A load that looks in a cache first: `unloaded` until it delivers, ends or asks for
/// `loading`; with content shown, `loading(previous:)` at once as usual.
@Suite struct DeferredLoadingTests {
    /// Starts a deferring load, failing the test if the machine did not start one.
    private func startDeferring(_ machine: inout Machine, _ input: Int) throws -> Machine.LoadRequest {
        guard case .start(let request, _) = machine.refresh(input, defersLoading: true) else {
            Issue.record("refresh(\(input)) did not start a load")
            throw CancellationError()
        }
        return request
    }

    @Test func aHitIsTheFirstStateShown() throws {
        var machine = Machine()
        let load = try startDeferring(&machine, 1)
        #expect(machine.state == .unloaded)
        #expect(machine.takeChanges().isEmpty, "nothing to publish while the cache is read")
        machine.receive(10, isEmpty: false, from: load.id)
        #expect(machine.state == .success(10))
    }

    @Test func aMissShowsLoadingWhenTheLoadAsks() throws {
        var machine = Machine()
        let load = try startDeferring(&machine, 1)
        let shown = machine.showLoading(from: load.id)
        #expect(shown)
        #expect(machine.state == .loading(previous: nil))
        let shownAgain = machine.showLoading(from: load.id)
        #expect(!shownAgain, "asked once")
        let cancelled = machine.cancel()
        #expect(cancelled == load.id)
        #expect(machine.state == .unloaded, "a cancelled load returns to what was there before")
    }

    @Test func anEndWithNothingIsEmptyNotStuckUnloaded() throws {
        var machine = Machine()
        let load = try startDeferring(&machine, 1)
        guard case .settled(next: nil) = machine.finish(load.id) else {
            Issue.record("the load did not settle")
            return
        }
        #expect(machine.state == .empty)
        #expect(machine.lastSettled == load.id)
    }

    @Test func aFailureIsAnErrorWithNothingKept() throws {
        var machine = Machine()
        let load = try startDeferring(&machine, 1)
        _ = machine.fail(CancellationError(), from: load.id)
        #expect(machine.state.phase == .error)
        #expect(machine.state.content == nil)
    }

    @Test func withContentShownLoadingComesAtOnce() throws {
        var machine = Machine()
        machine.receive(10, isEmpty: false, from: try startDeferring(&machine, 1).id)
        let second = try startDeferring(&machine, 2)
        #expect(machine.state == .loading(previous: 10))
        let shown = machine.showLoading(from: second.id)
        #expect(!shown)
    }

    @Test func anOldLoadCannotShowLoadingForANewerOne() throws {
        var machine = Machine()
        let first = try startDeferring(&machine, 1)
        let second = try startDeferring(&machine, 2)
        let shownByFirst = machine.showLoading(from: first.id)
        #expect(!shownByFirst)
        #expect(machine.state == .unloaded)
        let shownBySecond = machine.showLoading(from: second.id)
        #expect(shownBySecond)
    }

    @Test func aQueuedRefreshKeepsItsDeferral() throws {
        var machine = Machine(policy: .enqueueLatest)
        let first = try startDeferring(&machine, 1)
        guard case .enqueue = machine.refresh(2, defersLoading: true) else {
            Issue.record("the second refresh was not queued")
            return
        }
        guard case .settled(next: let next?) = machine.cancelled(first.id) else {
            Issue.record("the queued refresh did not start")
            return
        }
        #expect(machine.state == .unloaded, "the queued load defers too")
        let shown = machine.showLoading(from: next.id)
        #expect(shown)
    }

    @MainActor @Test func aModelShowsItsProducersValueFirst() async throws {
        let model = DeferringModel()
        let recorder = StateRecorder(model)
        let refresh = model.refresh(1)
        #expect(model.state == .unloaded)
        #expect(await refresh.settled() == .success(1))
        #expect(try await recorder.states(count: 2) == [.unloaded, .success(1)])
    }

    @MainActor @Test func aModelShowsLoadingWhenItsProducerAsks() async throws {
        let model = DeferringModel()
        let recorder = StateRecorder(model)
        let refresh = model.refresh(-1)
        #expect(await refresh.settled() == .success(1))
        #expect(try await recorder.states(count: 3) == [.unloaded, .loading(previous: nil), .success(1)])
    }
}

/// A model whose producer "finds" positive inputs in a cache and "fetches" the others.
@MainActor
private final class DeferringModel: ContentLoadingViewModel<Int, Int> {
    override var defersLoading: Bool { true }
    override func producer(for input: Int) -> ContentProducer<Int> {
        .deferringLoading { send, showLoading in
            if input < 0 { await showLoading() }
            await send(.value(abs(input)))
        }
    }
}
