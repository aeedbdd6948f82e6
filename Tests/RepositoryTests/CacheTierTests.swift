import ContentLoadingRepository
import Foundation
import KitTestSupport
import Testing

/// The memory tier: LRU by count and by cost, thread-safe.
@Suite struct MemoryCacheTests {
    @Test func evictsTheLeastRecentlyUsedOverTheCountLimit() async throws {
        let repository = KeyedRepository<String, String>(memory: MemoryCache(countLimit: 3)) { "\($0)" }
        for key in ["a", "b", "c"] { try await repository.save(key, for: key) }
        _ = repository.memory.entry(for: "a")  // "a" is now the most recent
        try await repository.save("d", for: "d")
        #expect(repository.memory.keysByRecency == ["d", "a", "c"])
        #expect(repository.memory.entry(for: "b") == nil)
    }

    @Test func evictsOverTheCostLimitAndKeepsNothingCostlierThanIt() async throws {
        let memory = MemoryCache<String, String>(countLimit: 100, costLimit: 10) { $0.count }
        let repository = KeyedRepository<String, String>(memory: memory) { $0 }
        try await repository.save("1234", for: "a")
        try await repository.save("1234", for: "b")
        try await repository.save("1234", for: "c")  // 12 > 10: "a" goes
        #expect(memory.keysByRecency == ["c", "b"])
        #expect(memory.totalCost == 8)
        try await repository.save(String(repeating: "x", count: 11), for: "d")
        #expect(memory.entry(for: "d") == nil, "costlier than the whole limit")
    }

    /// A count limit below 1 keeps no entry, as a cost limit of 0 does (every read goes to the
    /// next tier); it stopped the process with a precondition failure.
    @Test(arguments: [0, -1])
    func aCountLimitBelowOneKeepsNothing(limit: Int) async throws {
        let memory = MemoryCache<String, String>(countLimit: limit)
        let repository = KeyedRepository<String, String>(memory: memory) { "fetched \($0)" }
        try await repository.save("saved", for: "a")
        #expect(memory.countLimit == 0)
        #expect(memory.entry(for: "a") == nil)
        #expect(try await repository.value(for: "a")?.value == "fetched a")
    }

    /// Costs the app's function gives that no total holds: `Int.max` ("too big") is not kept,
    /// where the next store overflowed the total and stopped the process; a negative cost
    /// counts as 0, so it cannot make room for others past the limit; a negative limit keeps
    /// nothing.
    @Test func costsPastWhatATotalHoldsAreNotKeptAndNegativeOnesCountAsZero() async throws {
        let costs = ["huge": Int.max, "half": Int.max / 2 + 1, "minus": -100, "min": Int.min, "two": 2]
        let unlimited = MemoryCache<String, String>(countLimit: 10) { costs[$0] ?? 1 }
        let repository = KeyedRepository<String, String>(memory: unlimited) { $0 }
        for (key, value) in [("a", "huge"), ("b", "half"), ("c", "half"), ("d", "min"), ("e", "two")] {
            try await repository.save(value, for: key)
        }
        #expect(unlimited.keysByRecency == ["e", "d"], "past half of Int.max, nothing is kept")
        #expect(unlimited.totalCost == 2)

        let limited = MemoryCache<String, String>(countLimit: 10, costLimit: 2) { costs[$0] ?? 1 }
        let within = KeyedRepository<String, String>(memory: limited) { $0 }
        for (key, value) in [("a", "minus"), ("b", "two"), ("c", "two")] { try await within.save(value, for: key) }
        #expect(limited.keysByRecency == ["c"], "-100 made no room: \(limited.keysByRecency)")
        #expect(limited.totalCost == 2)

        let none = MemoryCache<String, String>(countLimit: 10, costLimit: -1) { costs[$0] ?? 1 }
        try await KeyedRepository<String, String>(memory: none) { $0 }.save("minus", for: "a")
        #expect(none.costLimit == 0)
        #expect(none.count == 0)
    }

    @Test func concurrentUseKeepsTheLimits() async throws {
        let memory = MemoryCache<Int, Int>(countLimit: 50)
        let repository = KeyedRepository<Int, Int>(memory: memory) { $0 }
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for index in 0..<500 {
                        try? await repository.save(index, for: worker * 1_000 + index)
                        _ = memory.entry(for: worker * 1_000 + index / 2)
                    }
                }
            }
        }
        #expect(memory.count == 50)
        #expect(Set(memory.keysByRecency).count == 50)
    }
}

/// The disk tier: byte limit with LRU by last read, format versions, ages across a restart,
/// promotion to memory, and entries that fail to decode.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct DiskCacheTests {
    let path: String
    let clock = TestWallClock()

    init() throws { path = try temporaryCachePath() }

    func repository(
        byteLimit: Int = 1 << 20, formatVersion: Int = 1, ages: CacheAges = .default, fetch: String = "fetched"
    ) throws -> KeyedRepository<String, String> {
        KeyedRepository(
            disk: try DiskCache(.file(path: path), byteLimit: byteLimit, formatVersion: formatVersion), ages: ages,
            now: { [clock] in clock.now }
        ) { _ in fetch }
    }

    @Test func aRestartReadsFromDiskAndPromotesToMemory() async throws {
        try await repository().save("kept", for: "a")
        let restarted = try repository()
        let first = try #require(try await restarted.value(for: "a", policy: .returnCacheDontLoad))
        #expect(first.origin == .disk)
        #expect(first.value == "kept")
        #expect(try await restarted.value(for: "a", policy: .returnCacheDontLoad)?.origin == .memory)
    }

    @Test func invalidatingAKeyMarksAValueReadFromDiskStale() async throws {
        try await repository().save("kept", for: "a")
        let restarted = try repository()
        #expect(try await restarted.value(for: "a", policy: .returnCacheDontLoad)?.isStale == false)
        restarted.invalidate("a")
        #expect(restarted.cachedValue(for: "a")?.isStale == true, "written by an earlier process, invalidated now")
        #expect(try await restarted.value(for: "a", policy: .returnCacheDontLoad)?.isStale == true)
    }

    @Test func agesHoldOnDiskAcrossARestart() async throws {
        let ages = CacheAges(staleAfter: .seconds(60), expireAfter: .seconds(600))
        try await repository(ages: ages).save("kept", for: "a")
        clock.advance(by: 120)
        let stale = try #require(try await repository(ages: ages).value(for: "a", policy: .returnCacheDontLoad))
        #expect(stale.origin == .disk)
        #expect(stale.age == .seconds(120))
        #expect(stale.isStale)
        clock.advance(by: 600)
        let restarted = try repository(ages: ages)
        #expect(try await restarted.value(for: "a", policy: .returnCacheDontLoad) == nil, "expired: never served")
        #expect(try await restarted.disk?.keysByAccess() == [], "and removed")
    }

    @Test func overTheByteLimitTheLeastRecentlyReadEntriesGoOnWrite() async throws {
        let repository = try repository(byteLimit: 140)
        for key in ["a", "b", "c"] {
            try await repository.save(String(repeating: key, count: 28), for: key)  // 30 bytes of JSON each
            clock.advance(by: 1)
        }
        repository.memory.removeAll()
        _ = try await repository.value(for: "a", policy: .returnCacheDontLoad)  // read: "a" is recent now
        clock.advance(by: 1)
        try await repository.save(String(repeating: "d", count: 28), for: "d")  // 176 > 140: evict one
        let disk = try #require(repository.disk)
        #expect(try await disk.keysByAccess() == ["Swift.String|c", "Swift.String|a", "Swift.String|d"])
        #expect(await disk.storedBytes == 132, "three 30-byte values under 14-byte keys (Swift.String|a)")
    }

    /// A clock that gives no time the file keeps (infinite, not a number, past ±3,000 years):
    /// the write fails, naming it, and writes nothing. It stored an entry whose next read found
    /// it corrupt and removed it, and the value saved before it with it.
    @Test(arguments: [Double.infinity, .nan, -1e300])
    func aClockThatGivesNoTimeWritesNothingAndTheStoredValueStays(seconds: Double) async throws {
        try await repository().save("good", for: "k")
        let broken = KeyedRepository<String, String>(
            disk: try DiskCache(.file(path: path)), now: { Date(timeIntervalSince1970: seconds) }
        ) { _ in "fetched" }
        let error = await #expect(throws: CacheError.self) { try await broken.save("bad", for: "k") }
        #expect(
            error?.description.contains("the clock gave \(seconds) seconds since 1970") == true,
            "\(String(describing: error))")
        #expect(try await repository().value(for: "k", policy: .returnCacheDontLoad)?.value == "good")
    }

    @Test func aCacheOpenedOverAFullFileEvictsOnItsFirstWrite() async throws {
        // NB: the total is not read at open: the first write takes the one the file keeps, so
        // the limit holds from that write on.
        let first = try repository(byteLimit: 1 << 20)
        for key in ["a", "b", "c", "d"] {
            try await first.save(String(repeating: key, count: 28), for: key)  // 44 bytes with the key
            clock.advance(by: 1)
        }
        let reopened = try repository(byteLimit: 140)
        try await reopened.save(String(repeating: "e", count: 28), for: "e")  // 220 > 140: evict two
        let disk = try #require(reopened.disk)
        #expect(try await disk.keysByAccess() == ["Swift.String|c", "Swift.String|d", "Swift.String|e"])
        #expect(await disk.storedBytes == 132)
    }

    @Test func aCacheReportsItsSizeBeforeItsFirstWrite() async throws {
        let first = try repository()
        for key in ["a", "b"] { try await first.save(String(repeating: key, count: 28), for: key) }
        #expect(try await repository().disk?.storedBytes == 88, "two 30-byte values under 14-byte keys")
    }

    @Test func writesThroughTwoConnectionsStayUnderTheByteLimitTogether() async throws {
        // NB: two processes on one cache file (here two `DiskCache`s), both opened first: each
        // write counts what the other wrote since.
        let first = try repository(byteLimit: 140)
        let second = try repository(byteLimit: 140)
        for (key, repository) in [("a", first), ("b", first), ("c", second), ("d", second)] {
            try await repository.save(String(repeating: key, count: 28), for: key)  // 30 bytes of JSON each
            clock.advance(by: 1)
        }
        try await first.save(String(repeating: "e", count: 28), for: "e")
        let disk = try #require(first.disk)
        #expect(try await disk.keysByAccess() == ["Swift.String|c", "Swift.String|d", "Swift.String|e"])
        #expect(await disk.storedBytes == 132, "the file's total, whichever connection wrote")
        #expect(try sqlRows("SELECT stored_bytes FROM content_loading_cache_counter", in: path) == ["132"])
    }

    @Test func entriesOfAnotherFormatAreDiscarded() async throws {
        try await repository(formatVersion: 1).save("old format", for: "a")
        let upgraded = try repository(formatVersion: 2)
        #expect(try await upgraded.value(for: "a", policy: .returnCacheDontLoad) == nil)
        #expect(try await upgraded.disk?.keysByAccess() == [])
    }

    @Test func aCacheWrittenBeforeValidatorsKeepsItsEntriesWithNone() async throws {
        // NB: the first schema, as a cache written before validators were stored has it.
        let database = try SQLiteDatabase(.file(path: path))
        try database.prepareForStore(migrations: [
            """
            CREATE TABLE content_loading_cache (
                key TEXT PRIMARY KEY NOT NULL, format INTEGER NOT NULL, version INTEGER NOT NULL,
                value BLOB NOT NULL, size INTEGER NOT NULL, written_at REAL NOT NULL, accessed_at REAL NOT NULL
            );
            CREATE INDEX content_loading_cache_by_access ON content_loading_cache (accessed_at)
            """
        ])
        // NB: the value is `"kept"`.
        try database.execute(
            #"INSERT INTO content_loading_cache VALUES ('"a"', 1, 1, X'226B65707422', 6, 1000000, 1000000)"#)
        let upgraded = try repository()
        #expect(try await upgraded.value(for: "a", policy: .returnCacheDontLoad)?.value == "kept")
        try await upgraded.save("new", for: "b")
        #expect(try await upgraded.disk?.keysByAccess().count == 2)
    }

    @Test func anEntryThatFailsToDecodeIsAMissAnErrorAndIsRemovedAlone() async throws {
        try await repository().save("fine", for: "b")
        let database = try SQLiteDatabase(.file(path: path))
        // NB: the value is `{}`, which does not decode as a String.
        try database.execute(
            #"""
            INSERT INTO content_loading_cache VALUES ('Swift.String|a', 1, 1, 2, 1000000, 1000000, NULL, NULL, NULL);
            INSERT INTO content_loading_cache_values VALUES ('Swift.String|a', X'7B7D')
            """#
        )
        let restarted = try repository()
        var events: [CacheEvent<String>] = []
        for await event in restarted.events(for: "a", policy: .returnCacheDontLoad) {
            events.append(event)
            if events.count == 2 { break }
        }
        guard case .error(let error as CacheError) = events.first else {
            Issue.record("expected a cache error first, got \(events.map(\.summary))")
            return
        }
        #expect(error.description.contains(path))
        #expect(error.description.contains("entry a in"))
        #expect(events.last?.summary == "noValue")
        #expect(try await restarted.disk?.keysByAccess() == ["Swift.String|b"], "the bad entry removed, the other kept")
        #expect(try await restarted.value(for: "b", policy: .returnCacheDontLoad)?.value == "fine")
    }

    @Test func aOneShotReadOfAnEntryThatFailsToDecodeThrowsNamingFileAndKey() async throws {
        try await repository().save("fine", for: "b")
        // NB: the value is `{}`, which does not decode as a String.
        try SQLiteDatabase(.file(path: path)).execute(
            #"""
            INSERT INTO content_loading_cache VALUES ('Swift.String|a', 1, 1, 2, 1000000, 1000000, NULL, NULL, NULL);
            INSERT INTO content_loading_cache_values VALUES ('Swift.String|a', X'7B7D')
            """#
        )
        let restarted = try repository()
        let error = await #expect(throws: CacheError.self) {
            try await restarted.value(for: "a", policy: .returnCacheDontLoad)
        }
        #expect(error?.description.contains(path) == true)
        #expect(error?.description.contains("entry a in") == true)
        #expect(try await restarted.value(for: "a", policy: .returnCacheDontLoad) == nil, "removed: a miss next")
        #expect(try await restarted.value(for: "b", policy: .returnCacheDontLoad)?.value == "fine")
    }

    @Test func aCorruptCacheFileIsAClearErrorAndIsLeftAlone() throws {
        let garbage = Data(repeating: 0x42, count: 8_192)
        try garbage.write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: SQLiteError.self) { try DiskCache(.file(path: path)) }
        #expect(error?.description.contains(path) == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
    }

    @Test func aFailingDiskWriteIsAnErrorNamingFileAndKeyAndChangesNothing() async throws {
        let repository = try repository()
        try await repository.save("before", for: "b")
        try await repository.save("kept", for: "a")
        struct DiskFull: Error, CustomStringConvertible { var description: String { "disk is full" } }
        await repository.disk?.setWriteFault { _ in throw DiskFull() }
        let reader = repository.events(for: "a", policy: .returnCacheDontLoad)
        var iterator = reader.makeAsyncIterator()
        #expect(await iterator.next()?.summary == "memory:kept")
        let error = await #expect(throws: CacheError.self) { try await repository.save("after", for: "a") }
        #expect(error?.description == "cannot write cache entry a in \(path): disk is full")
        #expect(await iterator.next()?.summary == "error", "the reader gets the error, not the value the disk lacks")
        #expect(try await repository.value(for: "a", policy: .returnCacheDontLoad)?.value == "kept")
        repository.memory.removeAll()
        #expect(try await repository.value(for: "a", policy: .returnCacheDontLoad)?.value == "kept", "on disk too")
        #expect(try await repository.value(for: "b", policy: .returnCacheDontLoad)?.value == "before")
        await repository.disk?.setWriteFault(nil)
        try await repository.save("again", for: "a")
        #expect(await iterator.next()?.summary == "local:again")
        #expect(try await repository.disk?.keysByAccess().sorted() == ["Swift.String|a", "Swift.String|b"])
    }
}

/// A repository holds nothing per key beyond its tiers once nobody uses the key.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct KeyBookkeepingTests {
    @Test func keysNobodyUsesLeaveNothingBehind() async throws {
        let repository = KeyedRepository<Int, Int>(memory: MemoryCache(countLimit: 10)) { $0 }
        for key in 0..<1_000 { try await repository.save(key, for: key) }
        for key in 1_000..<1_100 { _ = try await repository.value(for: key) }
        repository.invalidate(5)
        // NB: a finished read lets go of its key when its task ends, just after its value.
        while repository.channelCount > 0 { await Task.yield() }
        #expect(repository.channelCount == 0, "no channel kept for 1,100 keys that nobody uses any more")
        #expect(repository.memory.count == 10)
    }

    @Test func aKeyWithAReaderKeepsItsChannelUntilTheReadEnds() async throws {
        let repository = KeyedRepository<Int, Int> { $0 }
        let read = Task {
            for await event in repository.events(for: 7) where event.cachedValue?.value == 8 { return }
        }
        while repository.observedKeyCount == 0 { await Task.yield() }
        try await repository.save(8, for: 7)
        await read.value
        while repository.channelCount > 0 { await Task.yield() }
        #expect(repository.observedKeyCount == 0)
    }
}
