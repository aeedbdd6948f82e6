import ContentLoading
import ContentLoadingRepository
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// The single-source-of-truth flow is the keyed mechanism's case of one key: one single flight
/// for reads and explicit syncs, writes that win over fetches, and each write given once.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct SingleSourceOfTruthTests {
    let remote = TestRemote()

    @Test func aReadsSyncAndAnExplicitSyncShareOneFetch() async throws {
        let store = try CountingStore(notes(0..<1))
        remote.serve(notes(0..<3))
        let gate = remote.hold()
        let synchronizer = Synchronizer(store: store, fetch: remote.fetch)
        let events = StreamRecorder(Repository(synchronizer: synchronizer).events())
        #expect(try await events.values(count: 1).map(\.value) == [notes(0..<1)])
        let explicit = Task { try await synchronizer.sync() }
        // NB: waits, without sleeping, until the read's sync and the explicit one share a flight.
        while synchronizer.waitingCallers < 2 { await Task.yield() }
        gate.resolve(())
        #expect(try await explicit.value == .updated)
        #expect(try await events.values(count: 2).last?.value == notes(0..<3))
        #expect(remote.fetchCount == 1)
        #expect(await store.writes == 1)
    }

    @Test func eachWriteIsGivenOnceAndADirectStoreWriteFollowsInOrder() async throws {
        let store = try SQLiteStore<Note>(.inMemory)
        try await store.write(notes(0..<1))
        remote.serve(notes(0..<3))
        let synchronizer = Synchronizer(store: store, fetch: remote.fetch)
        let events = StreamRecorder(Repository(synchronizer: synchronizer).events())
        #expect(try await events.values(count: 2).map(\.value) == [notes(0..<1), notes(0..<3)])
        // NB: readers get a write before the store has it; a sync now would join that one.
        await synchronizer.syncSettled()
        #expect(try await synchronizer.sync() == .notModified, "the same collection again writes nothing")
        try await store.write([Note(id: 9, title: "written directly")])
        let values = try await events.values(count: 3).map(\.value)
        #expect(values[2] == notes(0..<3) + [Note(id: 9, title: "written directly")], "no repeat came before it")
    }

    @Test func aDirectStoreWriteWinsOverAFetchThatStartedBeforeIt() async throws {
        let store = try SQLiteStore<Note>(.inMemory)
        try await store.write(notes(0..<1))
        remote.serve(notes(0..<3, "remote"))
        let gate = remote.hold()
        let synchronizer = Synchronizer(store: store, fetch: remote.fetch)
        let events = StreamRecorder(Repository(synchronizer: synchronizer).events())
        _ = try await events.values(count: 1)
        let sync = Task { try await synchronizer.sync() }
        while synchronizer.waitingCallers < 2 { await Task.yield() }
        let edit = Note(id: 0, title: "edited on this device")
        try await store.write([edit])
        #expect(try await events.values(count: 2).last?.value == [edit])
        gate.resolve(())
        #expect(try await sync.value == .notModified, "the fetch that started before the write is dropped")
        #expect(try await store.fetchAll() == [edit])
        #expect(events.elements.compactMap(\.value).allSatisfy { $0 != notes(0..<3, "remote") })
    }

    @Test func anUnchangedFetchConfirmsTheDataWithoutWritingOrRepeatingIt() async throws {
        let store = try CountingStore(notes(0..<2))
        remote.serve(notes(0..<2))
        let synchronizer = Synchronizer(store: store, fetch: remote.fetch)
        let events = StreamRecorder(Repository(synchronizer: synchronizer).events())
        #expect(try await events.values(count: 1).map(\.value) == [notes(0..<2)])
        #expect(try await synchronizer.sync() == .notModified)
        #expect(await store.writes == 0)
        #expect(await store.lastSyncDate() != nil, "the confirmed data counts as synced")
        try await store.write(notes(5..<6))
        #expect(try await events.values(count: 2).last?.value == notes(0..<2) + notes(5..<6))
    }

    @Test func freshStoredDataIsShownWithoutAFetch() async throws {
        let clock = TestWallClock()
        let store = try CountingStore(notes(0..<2))
        await store.setLastSyncDate(clock.now)
        clock.advance(by: 60)
        let synchronizer = Synchronizer(
            store: store, freshness: .ifOlderThan(.seconds(300)), now: { clock.now }, fetch: remote.fetch)
        let events = StreamRecorder(Repository(synchronizer: synchronizer).events())
        #expect(try await events.values(count: 1).map(\.value) == [notes(0..<2)])
        #expect(try await synchronizer.sync() == .skipped)
        try await store.write(notes(2..<3))
        #expect(try await events.values(count: 2).last?.value == notes(0..<3))
        #expect(remote.fetchCount == 0)
    }
}
