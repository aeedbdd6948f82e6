import ContentLoading
import Testing

/// A load that goes on after it caught up with its refresh (an observation) works on no
/// refresh: every policy replaces it, and a refresh queued behind it starts when it catches up.
@Suite struct StateMachineCatchUpTests {
    typealias Machine = ContentLoadingStateMachine<Int, Int>

    /// A machine whose load of 1 showed 10; caught up when `caughtUp`.
    static func observing(_ policy: RefreshPolicy, caughtUp: Bool) throws -> (Machine, Machine.LoadRequest) {
        var machine = Machine(policy: policy)
        guard case .start(let load, _) = machine.refresh(1) else { throw CancellationError() }
        machine.receive(10, isEmpty: false, from: load.id)
        if caughtUp { _ = machine.caughtUp(from: load.id) }
        return (machine, load)
    }

    @Test(arguments: [RefreshPolicy.latestWins, .joinInFlight, .enqueueLatest])
    func aRefreshAfterTheLoadCaughtUpReplacesIt(_ policy: RefreshPolicy) throws {
        var (machine, load) = try Self.observing(policy, caughtUp: true)
        guard case .start(let next, cancelling: load.id?) = machine.refresh(2) else {
            Issue.record("\(policy): the caught-up load was not replaced")
            return
        }
        #expect(next.input == 2)
        #expect(machine.activeLoad == next.id)
        #expect(machine.state == .loading(previous: 10), "the content stays shown")
    }

    @Test func aRefreshWhileTheLoadWorksOnItsRefreshIsJoined() throws {
        var (machine, load) = try Self.observing(.joinInFlight, caughtUp: false)
        guard case .join(load.id) = machine.refresh(2) else {
            Issue.record("not joined")
            return
        }
        #expect(machine.activeLoad == load.id)
    }

    @Test func aRefreshQueuedBehindALoadStartsWhenItCatchesUp() throws {
        var (machine, load) = try Self.observing(.enqueueLatest, caughtUp: false)
        guard case .enqueue(let ticket) = machine.refresh(2) else {
            Issue.record("not queued")
            return
        }
        let early = machine.startQueued(afterCatchUpOf: load.id)
        #expect(early == nil, "it has not caught up yet")
        _ = machine.caughtUp(from: load.id)
        let started = machine.startQueued(afterCatchUpOf: load.id)
        let next = try #require(started)
        #expect(next.id == ticket && next.input == 2)
        #expect(machine.activeLoad == ticket)
        let again = machine.startQueued(afterCatchUpOf: load.id)
        #expect(again == nil, "once")
        machine.receive(20, isEmpty: false, from: ticket)
        #expect(machine.lastSettled == ticket)
    }
}
