import ContentLoading
import KitTestSupport
import Testing

private struct Failure: Error, Equatable { let input: Int }
private typealias Machine = ContentLoadingStateMachine<Int, Int>

/// Starts a load and returns its request, failing the test if the machine did not start one.
private func start(_ machine: inout Machine, _ input: Int, sourceLocation: SourceLocation = #_sourceLocation) throws
    -> Machine.LoadRequest
{
    guard case .start(let request, _) = machine.refresh(input) else {
        Issue.record("refresh(\(input)) did not start a load", sourceLocation: sourceLocation)
        throw CancellationError()
    }
    return request
}

@Suite struct ContentLoadingStateMachineTests {
    @Test func firstRefreshLoadsThenSucceeds() throws {
        var machine = Machine()
        let load = try start(&machine, 1)
        #expect(machine.state == .loading(previous: nil))
        let applied = machine.receive(10, isEmpty: false, from: load.id)
        #expect(applied)
        #expect(machine.state == .success(10))
        #expect(machine.takeChanges() == [.state, .content])
    }

    @Test func emptyValueSettlesEmptyAndDropsOldContent() throws {
        var machine = Machine()
        machine.receive(1, isEmpty: false, from: try start(&machine, 1).id)
        machine.receive(0, isEmpty: true, from: try start(&machine, 2).id)
        #expect(machine.state == .empty)
        #expect(machine.state.content == nil)
    }

    @Test func aClearedLoadDropsItsContentAndGoesOn() throws {
        var machine = Machine()
        let load = try start(&machine, 1)
        machine.receive(10, isEmpty: false, from: load.id)
        _ = machine.takeChanges()
        let cleared = machine.clear(from: load.id)
        #expect(cleared)
        #expect(machine.state == .empty)
        #expect(machine.takeChanges() == [.state, .content])
        #expect(machine.activeLoad == load.id, "the load goes on")
        machine.receive(11, isEmpty: false, from: load.id)
        #expect(machine.state == .success(11))
        let stranger = machine.clear(from: LoadID(7))
        #expect(!stranger, "not the running load")
        #expect(machine.state == .success(11))
    }

    @Test func latestWinsCancelsTheRunningLoadAndDiscardsItsResult() throws {
        var machine = Machine()
        let first = try start(&machine, 1)
        guard case .start(let second, cancelling: let cancelled) = machine.refresh(2) else {
            Issue.record("second refresh did not start")
            return
        }
        #expect(cancelled == first.id)
        let staleApplied = machine.receive(1, isEmpty: false, from: first.id)
        #expect(!staleApplied)
        guard case .discard = machine.fail(Failure(input: 1), from: first.id) else {
            Issue.record("a superseded failure was not discarded")
            return
        }
        #expect(machine.state == .loading(previous: nil))
        let applied = machine.receive(2, isEmpty: false, from: second.id)
        #expect(applied)
        #expect(machine.state == .success(2))
    }

    @Test func joinPolicyServesTheRefreshWithTheRunningLoad() throws {
        var machine = Machine(policy: .joinInFlight)
        let first = try start(&machine, 1)
        guard case .join(let joined) = machine.refresh(2) else {
            Issue.record("refresh while loading did not join")
            return
        }
        #expect(joined == first.id)
        #expect(machine.lastInput == 1)
    }

    @Test func enqueuePolicyRunsOnlyTheNewestQueuedInputAfterTheRunningLoad() throws {
        var machine = Machine(policy: .enqueueLatest)
        let first = try start(&machine, 1)
        guard case .enqueue(let ticket) = machine.refresh(2), case .enqueue(let same) = machine.refresh(3) else {
            Issue.record("refresh while loading was not queued")
            return
        }
        #expect(ticket == same)
        machine.receive(1, isEmpty: false, from: first.id)
        guard case .settled(let next?) = machine.finish(first.id) else {
            Issue.record("the queued input did not start")
            return
        }
        #expect(next.id == ticket)
        #expect(next.input == 3)
        #expect(machine.state == .loading(previous: 1))
    }

    @Test func failureKeepsContentAndRecordsTheError() throws {
        var machine = Machine()
        machine.receive(5, isEmpty: false, from: try start(&machine, 1).id)
        _ = machine.takeChanges()
        _ = machine.fail(Failure(input: 2), from: try start(&machine, 2).id)
        #expect(machine.state == .error(Failure(input: 2), previous: 5))
        #expect(machine.lastError as? Failure == Failure(input: 2))
        #expect(machine.takeChanges() == [.state, .error])
        _ = try start(&machine, 3)
        #expect(machine.state == .loading(previous: 5))
        #expect(machine.lastError != nil, "the last error stays readable while reloading")
    }

    /// An error outside a load (a page that joined the list without what it could not read)
    /// keeps the content; a local edit after it keeps the phase; a load decides the state.
    @Test func anErrorOutsideALoadKeepsTheContentUntilALoadSettles() throws {
        var machine = Machine()
        let reportedUnloaded = machine.report(Failure(input: 0))
        #expect(!reportedUnloaded, "nothing to keep before the first value")
        #expect(machine.state == .unloaded)
        let first = try start(&machine, 1)
        machine.receive(5, isEmpty: false, from: first.id)
        _ = machine.finish(first.id)
        _ = machine.takeChanges()

        let reported = machine.report(Failure(input: 6))
        #expect(reported)
        #expect(machine.state == .error(Failure(input: 6), previous: 5))
        #expect(machine.lastError as? Failure == Failure(input: 6))
        #expect(machine.takeChanges() == [.state, .error])
        machine.replaceContent(7, isEmpty: false)
        #expect(machine.state == .error(Failure(input: 6), previous: 7), "an edit keeps the phase")

        let load = try start(&machine, 2)
        let reportedWhileLoading = machine.report(Failure(input: 8))
        #expect(!reportedWhileLoading, "while a load runs, its result decides")
        #expect(machine.state == .loading(previous: 7))
        machine.receive(9, isEmpty: false, from: load.id)
        #expect(machine.state == .success(9))
    }

    @Test func finishingWithoutAValueSettlesEmpty() throws {
        var machine = Machine()
        machine.receive(5, isEmpty: false, from: try start(&machine, 1).id)
        _ = machine.finish(try start(&machine, 2).id)
        #expect(machine.state == .empty)
        #expect(machine.activeLoad == nil)
    }

    @Test func finishingAfterValuesKeepsTheLastValue() throws {
        var machine = Machine()
        let load = try start(&machine, 1)
        machine.receive(1, isEmpty: false, from: load.id)
        machine.receive(2, isEmpty: false, from: load.id)
        _ = machine.finish(load.id)
        #expect(machine.state == .success(2))
    }

    @Test func cancelReturnsToTheLastSettledStateWithoutAnError() throws {
        var machine = Machine()
        let nothing = machine.cancel()
        #expect(nothing == nil)
        let first = try start(&machine, 1)
        let cancelled = machine.cancel()
        #expect(cancelled == first.id)
        #expect(machine.state == .unloaded)
        machine.receive(7, isEmpty: false, from: try start(&machine, 2).id)
        _ = try start(&machine, 3)
        _ = machine.cancel()
        #expect(machine.state == .success(7))
        #expect(machine.lastError == nil)
        #expect(machine.lastSettled == LoadID(3))
    }

    @Test func selfCancelledLoadReturnsToTheSettledState() throws {
        var machine = Machine()
        machine.receive(7, isEmpty: false, from: try start(&machine, 1).id)
        _ = machine.cancelled(try start(&machine, 2).id)
        #expect(machine.state == .success(7))
        #expect(machine.activeLoad == nil)
    }

    /// Thousands of random events in random order: a result reaches the state only from the
    /// running load (and then with that load's input), a result from any other load changes
    /// nothing, the state is `loading` exactly while the running load has produced no value,
    /// and a failure never loses content.
    @Test(arguments: [.latestWins, .joinInFlight, .enqueueLatest] as [RefreshPolicy])
    func randomEventsKeepTheRules(policy: RefreshPolicy) {
        var generator = SeededGenerator(seed: 0x5EED)
        var machine = Machine(policy: policy)
        var inputs: [LoadID: Int] = [:]
        var nextInput = 0
        var producedValue: Set<LoadID> = []
        var discarded = 0
        var issued: UInt64 = 0
        for _ in 0..<20_000 {
            let before = machine.state
            let target = LoadID(issued == 0 ? 1 : UInt64.random(in: 1...issued, using: &generator))
            let accepted = target == machine.activeLoad
            var isResult = true
            switch Int.random(in: 0..<10, using: &generator) {
            case 0...2:
                isResult = false
                nextInput += 1
                let action = machine.refresh(nextInput)
                switch action {
                case .start(let request, _): inputs[request.id] = request.input
                case .enqueue(let ticket): inputs[ticket] = nextInput
                case .join: break
                }
                issued = max(issued, action.ticket.rawValue)
            case 3:
                isResult = false
                _ = machine.cancel()
            case 4...6:
                let value = inputs[target] ?? -1
                let applied = machine.receive(value, isEmpty: value % 7 == 0, from: target)
                #expect(applied == accepted)
                if applied {
                    producedValue.insert(target)
                    #expect(machine.state == (value % 7 == 0 ? .empty : .success(value)))
                }
            case 7...8:
                if case .discard = machine.fail(Failure(input: inputs[target] ?? -1), from: target) {
                    #expect(!accepted)
                } else {
                    #expect(accepted)
                    #expect(machine.state.content == before.content, "a failure keeps the content")
                }
            default:
                _ = machine.finish(target)
            }
            if isResult && !accepted {
                discarded += 1
                #expect(machine.state == before, "a result from a load that is not running changes nothing")
            }
            if let active = machine.activeLoad {
                #expect(machine.state.isLoading == !producedValue.contains(active))
            } else {
                #expect(!machine.state.isLoading, "never stuck in loading without a running load")
            }
        }
        #expect(discarded > 1_000, "the run exercised stale results")
    }
}
