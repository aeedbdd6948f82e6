import ContentLoading
import Testing

/// A refresh settles when something is shown and completes when its load ended or caught up;
/// the machine tracks both, without tasks.
@Suite struct StateMachineCompletionTests {
    typealias Machine = ContentLoadingStateMachine<Int, Int>

    @Test func aLoadThatDeliversSettlesAndCompletesOnlyWhenItCatchesUp() throws {
        var machine = Machine()
        guard case .start(let load, _) = machine.refresh(1) else { throw CancellationError() }
        let early = machine.caughtUp(from: load.id)
        #expect(!early, "nothing shown yet: not complete")
        #expect(machine.lastCompleted == nil)
        machine.receive(10, isEmpty: false, from: load.id)
        #expect(machine.lastSettled == load.id)
        #expect(machine.lastCompleted == nil, "settled, the load goes on")
        let caughtUp = machine.caughtUp(from: load.id)
        #expect(caughtUp)
        #expect(machine.lastCompleted == load.id)
        let again = machine.caughtUp(from: load.id)
        #expect(!again, "once")
        #expect(machine.activeLoad == load.id, "the load still runs")
        #expect(machine.state == .success(10), "catching up changes no state")
    }

    @Test func endingALoadCompletesItAndEveryLoadItSuperseded() throws {
        var machine = Machine()
        guard case .start(let first, _) = machine.refresh(1) else { throw CancellationError() }
        guard case .start(let second, cancelling: first.id?) = machine.refresh(2) else { throw CancellationError() }
        let superseded = machine.caughtUp(from: first.id)
        #expect(!superseded, "a superseded load cannot complete anything")
        machine.receive(20, isEmpty: false, from: second.id)
        _ = machine.finish(second.id)
        #expect(machine.lastCompleted == second.id)
        #expect(first.id <= second.id)
    }

    @Test func aQueuedRefreshCompletesWhenItsOwnLoadEnds() throws {
        var machine = Machine(policy: .enqueueLatest)
        guard case .start(let first, _) = machine.refresh(1) else { throw CancellationError() }
        guard case .enqueue(let queued) = machine.refresh(2) else { throw CancellationError() }
        guard case .settled(let next?) = machine.finish(first.id) else { throw CancellationError() }
        #expect(machine.lastCompleted == first.id)
        #expect(next.id == queued)
        _ = machine.fail(CancellationError(), from: next.id)
        #expect(machine.lastCompleted == queued)
    }

    @Test func cancellingCompletesEveryRefreshMade() throws {
        var machine = Machine()
        _ = machine.refresh(1)
        let ticket = machine.refresh(2).ticket
        _ = machine.cancel()
        #expect(machine.lastCompleted == ticket)
    }
}
