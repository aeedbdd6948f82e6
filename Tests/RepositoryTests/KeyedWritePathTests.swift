import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// The write path: versions that order writes whatever the clock says, persist then deliver,
/// and reads that join a fetch late.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct KeyedWritePathTests {
    let path: String
    let clock = TestWallClock()

    init() throws { path = try temporaryCachePath() }

    func repository(fetch: @escaping @Sendable (String) async throws -> String = { "fetched \($0)" }) throws
        -> KeyedRepository<String, String>
    {
        KeyedRepository(disk: try DiskCache(.file(path: path)), now: { [clock] in clock.now }, fetch: fetch)
    }

    @Test func aSaveMadeWithTheClockBehindAnEarlierWriteIsStoredAndDelivered() async throws {
        clock.advance(by: 3_600)
        try await repository().save("written an hour ahead", for: "a")
        clock.advance(by: -3_600)  // the clock is set right: behind the stored write
        let repository = try repository()
        let reader = record(repository.events(for: "a", policy: .returnCacheDontLoad))
        #expect(try await summaries(reader, count: 1) == ["disk:written an hour ahead"])
        try await repository.save("written now", for: "a")
        #expect(try await summaries(reader, count: 2).last == "local:written now")
        let relaunched = try self.repository()
        #expect(try await relaunched.value(for: "a", policy: .returnCacheDontLoad)?.value == "written now")
    }

    @Test func twoRepositoriesOnOneFileInTheSameInstantKeepTheLastSave() async throws {
        let first = try repository()
        let second = try repository()  // the clock never moves
        try await first.save("one", for: "a")
        try await first.save("one again", for: "a")
        try await second.save("two", for: "a")
        #expect(try await repository().value(for: "a", policy: .returnCacheDontLoad)?.value == "two")
        try await first.save("three", for: "a")
        #expect(try await repository().value(for: "a", policy: .returnCacheDontLoad)?.value == "three")
    }

    @Test func aFetchWithTheClockBehindReplacesTheDiskHitAndEndsTheRefresh() async throws {
        clock.advance(by: 3_600)
        try await repository().save("old", for: "a")
        clock.advance(by: -3_600)
        let repository = try repository()
        let reader = record(repository.events(for: "a", policy: .returnCacheThenLoad))
        let events = try await reader.values(count: 2)
        #expect(events.map(\.summary) == ["disk:old", "remote:fetched a"])
        #expect(events.last?.cachedValue?.isRefreshing == false)
        #expect(try await self.repository().value(for: "a", policy: .returnCacheDontLoad)?.value == "fetched a")
    }

    @Test func aValueWrittenInTheFutureIsStaleNotFreshForEver() async throws {
        clock.advance(by: 3_600)
        try await repository().save("from the future", for: "a")
        clock.advance(by: -3_600)
        let cached = try #require(try await repository().value(for: "a", policy: .returnCacheDontLoad))
        #expect(cached.isStale)
        #expect(cached.age == .zero)
    }

    @Test func aFetchedValueReachesReadersOnlyAfterTheDiskHasIt() async throws {
        let repository = try repository()
        try await repository.save("saved", for: "a")
        let reader = record(repository.events(for: "a", policy: .returnCacheDontLoad))
        #expect(try await summaries(reader, count: 1) == ["memory:saved"])
        let hold = await DiskHold(try #require(repository.disk))
        let refresh = Task { try await repository.refresh("a") }
        await hold.writeReached()
        for _ in 0..<50 { await Task.yield() }
        #expect(reader.elements.count == 1, "nothing delivered while the write is under way")
        #expect(repository.cachedValue(for: "a")?.value == "saved", "nor put in memory")
        hold.release()
        #expect(try await refresh.value == .updated)
        #expect(try await summaries(reader, count: 2).last == "remote:fetched a")
    }

    @Test func aFetchWhoseDiskWriteFailsIsAnErrorAndReadersKeepWhatTheStoreHolds() async throws {
        let repository = try repository()
        try await repository.save("saved", for: "a")
        let reader = record(repository.events(for: "a", policy: .returnCacheDontLoad))
        _ = try await reader.values(count: 1)
        struct DiskFull: Error {}
        await repository.disk?.setWriteFault { _ in throw DiskFull() }
        await #expect(throws: CacheError.self) { try await repository.refresh("a") }
        #expect(try await summaries(reader, count: 2) == ["memory:saved", "error"])
        #expect(repository.cachedValue(for: "a")?.value == "saved")
        #expect(try await self.repository().value(for: "a", policy: .returnCacheDontLoad)?.value == "saved")
    }

    @Test func aReadThatJoinsAFetchAfterItsValueWasHandedOutStillGetsIt() async throws {
        let repository = try repository()
        let hold = await DiskHold(try #require(repository.disk))
        let first = Task { try await repository.value(for: "a")?.value }
        await hold.writeReached()
        // NB: joins the fetch while its result is being stored.
        let late = record(repository.events(for: "a", policy: .returnCacheThenLoad))
        let miss = Task { try await repository.value(for: "a", policy: .reloadIgnoringCache)?.value }
        while repository.waitingCallers(for: "a") < 3 { await Task.yield() }
        hold.release()
        #expect(try await first.value == "fetched a")
        #expect(try await miss.value == "fetched a")
        let shown = try await late.values(count: 1)
        #expect(shown.map(\.summary) == ["remote:fetched a"])
        #expect(shown.last?.cachedValue?.isRefreshing == false)
    }

    /// 1,000 runs: reads of every policy start at random moments around a fetch's end (its
    /// value handed out, stored, its flight ending); each ends with the fetched value, not
    /// refreshing and not waiting.
    @Test func readsThatStartAroundAFetchsEndAllEndWithItsValue() async throws {
        var random = SeededGenerator(seed: 7)
        let policies: [CachePolicy] = [
            .returnCacheElseLoad, .returnCacheThenLoad, .reloadIgnoringCache, .loadElseReturnCache,
        ]
        for run in 0..<RandomizedRuns.count(full: 1_000, usual: 1_000) {
            // NB: the test completes the first fetch; a read that starts after it ended makes
            // its own, answered at once.
            let loader = ControlledLoader<String, String>()
            let fetches = Locked(0)
            let disk = try DiskCache(.file(path: path.replacingOccurrences(of: ".sqlite", with: "-\(run).sqlite")))
            let repository = KeyedRepository<String, String>(disk: disk) { key in
                let first = fetches.withLock { count in
                    defer { count += 1 }
                    return count == 0
                }
                return first ? try await loader.load(key) : "v"
            }
            let refresh = Task { try await repository.refresh("k") }
            let call = try await loader.call(0)
            let policy = policies[Int(random.next() % 4)]
            let yields = Int(random.next() % 12)
            let late = Task { @MainActor in
                for _ in 0..<yields { await Task.yield() }
                for await event in repository.events(for: "k", policy: policy) {
                    if let cached = event.cachedValue, !cached.isRefreshing { return cached.value }
                }
                return "the read ended"
            }
            for _ in 0..<Int(random.next() % 12) { await Task.yield() }
            loader.complete(call, returning: "v")
            _ = try await refresh.value
            #expect(await late.value == "v", "run \(run), \(policy), \(yields) yields")
        }
    }
}
