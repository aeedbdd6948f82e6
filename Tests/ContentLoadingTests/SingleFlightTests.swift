import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// One operation at a time, shared by its callers, running while someone waits for it.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct SingleFlightTests {
    @Test func aCancelledCallerLeavesAtOnceWhileTheOthersKeepTheOperation() async throws {
        let flight = SingleFlight<String>()
        let loader = ControlledLoader<Int, String>()
        let first = Task { try await flight.run { (try? await loader.load(0)) ?? "cancelled" } }
        let call = try await loader.call(0)
        let second = Task { try await flight.run { "a second operation" } }
        while flight.waitingCallers < 2 { await Task.yield() }
        first.cancel()
        await #expect(throws: CancellationError.self) { try await first.value }
        #expect(loader.complete(call, returning: "shared"), "the operation went on for the other caller")
        #expect(try await second.value == "shared")
    }

    @Test func whenTheLastCallerLeavesTheOperationIsCancelledAndTheNextCallerStartsAnother() async throws {
        let flight = SingleFlight<String>()
        let loader = ControlledLoader<Int, String>()
        let abandoned = Task { try await flight.run { (try? await loader.load(0)) ?? "cancelled" } }
        _ = try await loader.call(0)
        abandoned.cancel()
        await #expect(throws: CancellationError.self) { try await abandoned.value }
        #expect(!flight.isRunning)
        let next = Task { try await flight.run { (try? await loader.load(1)) ?? "cancelled" } }
        let call = try await loader.call(1)
        #expect(loader.complete(call, returning: "new"))
        #expect(try await next.value == "new")
        #expect(loader.pendingCalls.isEmpty, "the abandoned operation saw its cancellation")
    }

    @Test func aWaitForTheEndKeepsTheOperationAndReturnsWhenItEnds() async throws {
        let flight = SingleFlight<String>()
        let loader = ControlledLoader<Int, String>()
        let caller = Task { try await flight.run { (try? await loader.load(0)) ?? "cancelled" } }
        let call = try await loader.call(0)
        let settled = Task { await flight.waitUntilIdle() }
        while flight.waitingForEnd < 1 { await Task.yield() }
        // The caller leaves; the wait still holds the operation.
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(flight.isRunning)
        #expect(loader.complete(call, returning: "done"))
        await settled.value
        #expect(!flight.isRunning)
    }

    @Test func aCommittedOperationIsNotLetGoWhenItsLastCallerLeaves() async throws {
        let flight = SingleFlight<String>()
        let loader = ControlledLoader<Int, String>()
        let caller = Task {
            try await flight.run { commit in
                do { try commit() } catch { return "let go" }
                return (try? await loader.load(0)) ?? "cancelled"
            }
        }
        let call = try await loader.call(0)
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(flight.isRunning, "it stays the operation in flight")
        let joined = Task { try await flight.run { "a second operation" } }
        while flight.waitingCallers < 1 { await Task.yield() }
        #expect(loader.complete(call, returning: "finished"), "it was not cancelled")
        #expect(try await joined.value == "finished")
        #expect(!flight.isRunning)
    }

    @Test func anOperationLetGoBeforeItCommitsCannotCommit() async throws {
        let flight = SingleFlight<String>()
        let loader = ControlledLoader<Int, String>()
        let committed = SettleSignal<Bool>()
        let caller = Task {
            try await flight.run { commit in
                _ = try? await loader.load(0)
                committed.resolve((try? commit()) != nil)
                return "done"
            }
        }
        let call = try await loader.call(0)
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(!flight.isRunning)
        _ = loader.complete(call, returning: "")
        #expect(await committed.wait() == false)
    }

    @Test func theEndedStepRunsOnceTheOperationIsNoLongerInFlight() async throws {
        let seen = Locked<[String]>([])
        let isRunning = Locked<(@Sendable () -> Bool)?>(nil)
        let flight = SingleFlight<String> { value in
            // A caller that starts here (a refresh on a failure event) starts a new operation.
            let running = isRunning.withLock { $0 }?() ?? true
            seen.withLock { $0.append("\(value), running: \(running)") }
        }
        // NB: weak, or the step and the flight would hold each other (a leak ASan reports).
        isRunning.withLock { $0 = { [weak flight] in flight?.isRunning ?? true } }
        let loader = ControlledLoader<Int, String>()
        let caller = Task { try await flight.run { (try? await loader.load(0)) ?? "cancelled" } }
        let call = try await loader.call(0)
        #expect(loader.complete(call, returning: "failed"))
        #expect(try await caller.value == "failed")
        #expect(seen.withLock { $0 } == ["failed, running: false"])
    }

    @Test func aCallerThatComesWhileTheEndedStepRunsStartsTheNextOperationAfterIt() async throws {
        let log = Locked<[String]>([])
        // NB: weak, or the step and the flight would hold each other (a leak ASan reports).
        let flight = Locked<WeakReference<SingleFlight<String>>?>(nil)
        let next = Locked<Task<String, any Error>?>(nil)
        let ended: @Sendable (String) async -> Void = { value in
            guard value == "first", let flight = flight.withLock({ $0?.object }) else { return }
            // A caller comes while the step runs (a refresh on a failure event)...
            let caller = Task {
                try await flight.run {
                    log.withLock { $0.append("second started") }
                    return "second"
                }
            }
            next.withLock { $0 = caller }
            while flight.waitingCallers < 1 { await Task.yield() }
            // ...and its operation has not started: what the step tells comes first.
            log.withLock { $0.append("ended, caller waiting: \(flight.waitingCallers), running: \(flight.isRunning)") }
        }
        let first = SingleFlight(ended: ended)
        flight.withLock { $0 = WeakReference(first) }
        #expect(try await first.run { "first" } == "first")
        let second = try #require(next.withLock { $0 })
        next.withLock { $0 = nil }
        #expect(try await second.value == "second")
        #expect(log.withLock { $0 } == ["ended, caller waiting: 1, running: false", "second started"])
        #expect(!first.isRunning)
    }

    @Test func aCallerThatNeedsANewResultComesForTheNextOperationOnceTheOperationHasCommitted() async throws {
        let (flight, loader, first, release) = try await Self.committedOperation()
        // The result is in hand (and may be told to others) before the operation ends.
        let joined = Task { try await flight.run { "an operation of its own" } }
        let refreshed = Task { try await flight.run(needsNewResult: true) { _ in (try? await loader.load(1)) ?? "" } }
        while flight.waitingCallers < 3 { await Task.yield() }
        release.resolve(())
        #expect(try await first.value == "first")
        #expect(try await joined.value == "first", "a caller that takes any result joins it")
        #expect(loader.complete(try await loader.call(1), returning: "second"))
        #expect(try await refreshed.value == "second", "one that needs a new result gets the next")
    }

    @Test func theNextOperationIsThatOfTheFirstQueuedCallerThatNeedsANewResult() async throws {
        // NB: weak, or the step and the flight would hold each other (a leak ASan reports).
        let flight = Locked<WeakReference<SingleFlight<String>>?>(nil)
        let queued = Locked<[Task<String, any Error>]>([])
        let ended: @Sendable (String) async -> Void = { value in
            guard value == "first", let flight = flight.withLock({ $0?.object }) else { return }
            // Callers that come while the operation ends wait for the next one, in order.
            let anyResult = Task { try await flight.run { "any result's" } }
            while flight.waitingCallers < 1 { await Task.yield() }
            let newResult = Task { try await flight.run(needsNewResult: true) { _ in "new result's" } }
            while flight.waitingCallers < 2 { await Task.yield() }
            queued.withLock { $0 = [anyResult, newResult] }
        }
        let first = SingleFlight(ended: ended)
        flight.withLock { $0 = WeakReference(first) }
        #expect(try await first.run { "first" } == "first")
        let callers = queued.withLock { $0 }
        queued.withLock { $0 = [] }
        try #require(callers.count == 2)
        #expect(try await callers[0].value == "new result's")
        #expect(try await callers[1].value == "new result's")
    }

    @Test func noNextOperationStartsWhenEveryCallerQueuedForItHasLeft() async throws {
        let (flight, loader, first, release) = try await Self.committedOperation()
        let refreshed = Task { try await flight.run(needsNewResult: true) { _ in (try? await loader.load(1)) ?? "" } }
        while flight.waitingCallers < 2 { await Task.yield() }
        refreshed.cancel()
        await #expect(throws: CancellationError.self) { try await refreshed.value }
        release.resolve(())
        #expect(try await first.value == "first")
        #expect(!flight.isRunning)
        #expect(loader.calls.count == 1)
    }

    /// A flight whose operation got "first" from call 0 of its loader and has committed; it
    /// ends once `release` is resolved. `first` is its caller.
    private static func committedOperation() async throws -> (
        SingleFlight<String>, ControlledLoader<Int, String>, Task<String, any Error>, SettleSignal<Void>
    ) {
        let flight = SingleFlight<String>()
        let loader = ControlledLoader<Int, String>()
        let (committed, release) = (SettleSignal<Void>(), SettleSignal<Void>())
        let first = Task {
            try await flight.run { commit in
                let value = (try? await loader.load(0)) ?? "cancelled"
                guard (try? commit()) != nil else { return "let go" }
                committed.resolve(())
                await release.wait()
                return value
            }
        }
        #expect(loader.complete(try await loader.call(0), returning: "first"))
        await committed.wait()
        return (flight, loader, first, release)
    }

    @Test func theEndedStepDoesNotRunForAnOperationLetGo() async throws {
        let ended = Locked<[String]>([])
        let flight = SingleFlight<String> { value in ended.withLock { $0.append(value) } }
        let loader = ControlledLoader<Int, String>()
        let returned = SettleSignal<Void>()
        let abandoned = Task {
            try await flight.run {
                defer { returned.resolve(()) }
                return (try? await loader.load(0)) ?? "let go"
            }
        }
        _ = try await loader.call(0)
        abandoned.cancel()
        await #expect(throws: CancellationError.self) { try await abandoned.value }
        await returned.wait()
        // NB: a later operation's step runs after the abandoned one has returned.
        #expect(try await flight.run { "next" } == "next")
        #expect(ended.withLock { $0 } == ["next"], "nobody waited for the operation let go")
    }

    @Test func anOperationLetGoCountsAsRunningUntilItIsCancelled() async throws {
        let flight = SingleFlight<Bool>()
        let started = SettleSignal<Void>()
        let release = SettleSignal<Void>()
        let runningWhenCancelled = Locked<Bool?>(nil)
        let caller = Task {
            try await flight.run {
                await withTaskCancellationHandler {
                    started.resolve(())
                    await release.wait()
                    return true
                } onCancel: {
                    runningWhenCancelled.withLock { $0 = flight.isRunning }
                }
            }
        }
        await started.wait()
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(runningWhenCancelled.withLock { $0 } == true, "still in flight while its cancellation runs")
        #expect(!flight.isRunning, "let go once cancelled, before its caller heard it left")
        release.resolve(())
    }
}
