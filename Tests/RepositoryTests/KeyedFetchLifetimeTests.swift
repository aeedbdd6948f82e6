import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// Which fetches run: one more after an invalidation that came during a fetch, none for a read
/// that never fetches, none once nobody waits, and none for a stream nobody iterates.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct KeyedFetchLifetimeTests {
    @Test func anInvalidationDuringAFetchMakesExactlyOneMoreFetchAfterIt() async throws {
        let loader = ControlledLoader<String, String>()
        let repository = KeyedRepository<String, String>(fetch: loader.load)
        let reader = record(repository.events(for: "k"))
        let first = try await loader.call(0)
        repository.invalidate("k")
        repository.invalidate("k")
        repository.invalidateAll()
        loader.complete(first, returning: "before the invalidation")
        let second = try await loader.call(1)
        loader.complete(second, returning: "after it")
        let events = try await summaries(reader, count: 2)
        #expect(events == ["remote:before the invalidation", "remote:after it"])
        await repository.fetchSettled("k")
        #expect(loader.calls.count == 2, "one more fetch, however many invalidations")
    }

    @Test func anInvalidationDoesNotFetchForAReadThatNeverFetches() async throws {
        let remote = KeyedRemote()
        let repository = KeyedRepository<String, String>(fetch: remote.fetch)
        try await repository.save("saved", for: "k")
        let reader = record(repository.events(for: "k", policy: .returnCacheDontLoad))
        _ = try await reader.values(count: 1)
        repository.invalidate("k")
        repository.invalidateAll()
        // NB: a fetch would have started by now; the save after it shows the read still hears.
        for _ in 0..<100 { await Task.yield() }
        try await repository.save("saved again", for: "k")
        #expect(try await summaries(reader, count: 2) == ["memory:saved", "local:saved again"])
        #expect(remote.fetchCount == 0)
        #expect(try await repository.value(for: "k", policy: .returnCacheDontLoad)?.isStale == false)
    }

    @Test func aFetchAndItsRetriesStopWhenTheLastReaderGoes() async throws {
        let clock = ManualClock()
        let attempts = Locked(0)
        struct Busy: RetryableError { var isTransient: Bool { true } }
        let repository = KeyedRepository<String, String>(
            retry: RetryPolicy(attempts: 10, initialDelay: .seconds(1), clock: clock)
        ) { _ in
            attempts.withLock { $0 += 1 }
            throw Busy()
        }
        let read = Task { for await _ in repository.events(for: "k") {} }
        try await clock.waitForSleepers(1)  // the first attempt failed; the retry waits
        read.cancel()
        await read.value
        // NB: not `fetchSettled`: a wait for the fetch keeps it alive, and the reader's own task
        // lets go of it a moment after the stream ends.
        while repository.isFetching("k") { await Task.yield() }
        clock.advance(by: .seconds(60))
        for _ in 0..<100 { await Task.yield() }
        #expect(attempts.withLock { $0 } == 1, "no attempt after the reader went")
    }

    /// A one-shot read that fetches first, or a fresh value, whose task is cancelled: it throws
    /// `CancellationError` (network-first too, though a value is cached), and its fetch stops.
    @Test(arguments: ["reload", "network first", "fresh value"])
    func aOneShotFetchStopsWhenItsTaskIsCancelled(call: String) async throws {
        let clock = ManualClock()
        let attempts = Locked(0)
        struct Busy: RetryableError { var isTransient: Bool { true } }
        let repository = KeyedRepository<String, String>(
            ages: CacheAges(staleAfter: .zero, expireAfter: .seconds(3_600)),
            retry: RetryPolicy(attempts: 10, initialDelay: .seconds(1), clock: clock)
        ) { _ in
            attempts.withLock { $0 += 1 }
            throw Busy()
        }
        try await repository.save("held", for: "k")
        let read = Task {
            switch call {
            case "reload": try await repository.value(for: "k", policy: .reloadIgnoringCache)
            case "network first": try await repository.value(for: "k", policy: .loadElseReturnCache)
            default: try await repository.freshValue(for: "k")
            }
        }
        try await clock.waitForSleepers(1)  // the first attempt failed; the retry waits
        read.cancel()
        await #expect(throws: CancellationError.self) { try await read.value }
        while repository.isFetching("k") { await Task.yield() }
        clock.advance(by: .seconds(60))
        for _ in 0..<100 { await Task.yield() }
        #expect(attempts.withLock { $0 } == 1, "no attempt after the call went")
        #expect(repository.cachedValue(for: "k")?.value == "held")
    }

    @Test func aFetchSomeoneStillAwaitsGoesOnWhenTheReaderGoes() async throws {
        let loader = ControlledLoader<String, String>()
        let repository = KeyedRepository<String, String>(fetch: loader.load)
        let read = Task { for await _ in repository.events(for: "k") {} }
        let call = try await loader.call(0)
        let refresh = Task { try await repository.refresh("k") }
        while repository.waitingCallers(for: "k") < 2 { await Task.yield() }
        read.cancel()
        await read.value
        #expect(loader.complete(call, returning: "v"), "the fetch was not cancelled")
        #expect(try await refresh.value == .updated)
        #expect(repository.cachedValue(for: "k")?.value == "v")
    }

    @Test func aFetchWhoseWriteHasBegunIsStillInFlightWhenItsLastCallerGoes() async throws {
        let (loader, disk, repository, hold) = try await fetchLeftWhileItWrites()
        // NB: past its last check for cancellation, the fetch writes its value: until that is
        // stored it is the fetch in flight, which a wait waits for. A refresh that comes then
        // asked after the answer came: it waits for the write, then fetches again.
        try #require(repository.isFetching("k"), "a fetch that is writing its value is in flight")
        let refreshed = Task { try await repository.refresh("k") }
        while repository.waitingCallers(for: "k") < 1 { await Task.yield() }
        hold.release()
        let next = try await loader.call(1)
        #expect(repository.cachedValue(for: "k")?.value == "fetched", "the first fetch's write ended first")
        #expect(try await disk.keysByAccess() == ["Swift.String|k"])
        #expect(loader.complete(next, returning: "fetched again"))
        #expect(try await refreshed.value == .updated)
        #expect(repository.cachedValue(for: "k")?.value == "fetched again")
        #expect(loader.calls.count == 2)
    }

    @Test func aSaveMadeWhileAFetchNobodyWaitsForWritesIsTheValueKept() async throws {
        let (_, disk, repository, hold) = try await fetchLeftWhileItWrites()
        // NB: the save waits for the fetch's write (one write lock per key), then wins. The
        // yields give a save that does not wait (a second lock of its own) time to land first.
        let save = Task { try await repository.save("saved", for: "k") }
        for _ in 0..<100 { await Task.yield() }
        hold.release()
        try await save.value
        await repository.fetchSettled("k")
        #expect(repository.cachedValue(for: "k")?.value == "saved")
        let stored = KeyedRepository<String, String>(memory: MemoryCache(countLimit: 1, costLimit: 0), disk: disk) {
            $0
        }
        #expect(try await stored.value(for: "k", policy: .returnCacheDontLoad)?.value == "saved")
    }

    /// A repository over an in-memory disk whose fetch of "k" returned "fetched" and whose
    /// only caller left while the fetch's disk write is held.
    private func fetchLeftWhileItWrites() async throws -> (
        ControlledLoader<String, String>, DiskCache, KeyedRepository<String, String>, DiskHold
    ) {
        let loader = ControlledLoader<String, String>()
        let disk = try DiskCache(.inMemory)
        let repository = KeyedRepository<String, String>(disk: disk, fetch: loader.load)
        let hold = await DiskHold(disk)
        let refresh = Task { try await repository.refresh("k") }
        #expect(loader.complete(try await loader.call(0), returning: "fetched"))
        await hold.writeReached()
        refresh.cancel()
        await #expect(throws: CancellationError.self) { try await refresh.value }
        return (loader, disk, repository, hold)
    }

    @Test func aReadStartsWhenItsStreamIsIteratedNotWhenItIsMade() async throws {
        let remote = KeyedRemote()
        let repository = KeyedRepository<String, String>(fetch: remote.fetch)
        let events = repository.events(for: "k", policy: .reloadIgnoringCache)
        for _ in 0..<100 { await Task.yield() }
        #expect(remote.fetchCount == 0)
        #expect(repository.observedKeyCount == 0)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next()?.summary == "remote:k v1")
        #expect(remote.fetchCount == 1)
        #expect(repository.observedKeyCount == 1)
    }
}
