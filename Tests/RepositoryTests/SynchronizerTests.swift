import ContentLoadingRepository
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct SynchronizerTests {
    let remote = TestRemote()

    @Test func updatedWritesOneTransactionAndObserversSeeItOnce() async throws {
        let store = try CountingStore(notes(0..<2))
        let observed = await StreamRecorder(store.observe())
        remote.serve(notes(0..<5))
        let outcome = try await Synchronizer(store: store, fetch: remote.fetch).sync()
        #expect(outcome == .updated)
        #expect(await store.writes == 1)
        #expect(try await observed.values(count: 2) == [notes(0..<2), notes(0..<5)])
        try await store.write(notes(9..<10))
        #expect(try await observed.values(count: 3).count == 3)
        #expect(observed.elements.filter { $0 == notes(0..<5) }.count == 1, "the update arrived once")
    }

    @Test func notModifiedWritesNothing() async throws {
        let store = try CountingStore(notes(0..<3))
        remote.serve(notes(0..<3))
        #expect(try await Synchronizer(store: store, fetch: remote.fetch).sync() == .notModified)
        #expect(await store.writes == 0)
        #expect(await store.lastSyncDate() != nil, "the remote confirmed the data: it counts as a sync")
    }

    @Test func remoteErrorWritesNothingAndLeavesTheStore() async throws {
        let store = try CountingStore(notes(0..<3))
        remote.fail(with: RemoteFailure(reason: "HTTP 500"))
        await #expect(throws: RemoteFailure(reason: "HTTP 500")) {
            try await Synchronizer(store: store, fetch: remote.fetch).sync()
        }
        #expect(await store.writes == 0)
        #expect(await store.fetchAll() == notes(0..<3))
    }

    @Test func syncInFlightIsJoinedNotRepeated() async throws {
        let store = try CountingStore()
        remote.serve(notes(0..<1))
        let synchronizer = Synchronizer(store: store, fetch: remote.fetch)
        let gate = remote.hold()
        let first = Task { try await synchronizer.sync() }
        let joined = Task { try await synchronizer.sync() }
        // NB: waits, without sleeping, until both calls are inside the one sync.
        while synchronizer.waitingCallers < 2 { await Task.yield() }
        gate.resolve(())
        #expect(try await first.value == .updated)
        #expect(try await joined.value == .updated, "the joiner gets the outcome of the sync it joined")
        #expect(remote.fetchCount == 1)
    }

    @Test func hundredsOfConcurrentSyncsFetchOnce() async throws {
        let store = try CountingStore()
        remote.serve(notes(0..<10))
        let synchronizer = Synchronizer(store: store, fetch: remote.fetch)
        let gate = remote.hold()
        let outcomes = try await withThrowingTaskGroup(of: SyncOutcome.self) { group in
            for _ in 0..<500 { group.addTask { try await synchronizer.sync() } }
            while synchronizer.waitingCallers < 500 { await Task.yield() }
            gate.resolve(())
            var outcomes: [SyncOutcome] = []
            for try await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        #expect(remote.fetchCount == 1)
        #expect(await store.writes == 1)
        #expect(outcomes.count == 500)
    }

    @Test func freshnessSkipsWhileFreshAndRemembersAcrossRestarts() async throws {
        let path = try temporaryDatabasePath()
        let clock = TestWallClock()
        remote.serve(notes(0..<2))
        let policy = FreshnessPolicy.ifOlderThan(.seconds(300))
        do {
            let store = try SQLiteStore<Note>(.file(path: path))
            let synchronizer = Synchronizer(store: store, freshness: policy, now: { clock.now }, fetch: remote.fetch)
            #expect(try await synchronizer.sync() == .updated)
            clock.advance(by: 100)
            #expect(try await synchronizer.sync() == .skipped)
        }
        let restarted = Synchronizer(
            store: try SQLiteStore<Note>(.file(path: path)), freshness: policy, now: { clock.now }, fetch: remote.fetch)
        #expect(try await restarted.sync() == .skipped, "the last sync time persisted")
        clock.advance(by: 201)
        #expect(try await restarted.sync() == .notModified)
        #expect(remote.fetchCount == 2)
    }
}
