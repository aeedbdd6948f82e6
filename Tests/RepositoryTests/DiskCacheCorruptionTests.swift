import ContentLoadingRepository
import Foundation
import KitTestSupport
import Testing

/// The disk tier under corrupt or hostile rows: each is a miss and an error naming the file and
/// the key, and is removed; other keys and the memory tier keep working; nothing good is deleted.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct DiskCacheCorruptionTests {
    let path: String
    let clock = TestWallClock()

    init() throws { path = try temporaryCachePath() }

    func repository(byteLimit: Int = 1 << 20) throws -> KeyedRepository<String, String> {
        KeyedRepository(
            disk: try DiskCache(.file(path: path), byteLimit: byteLimit), now: { [clock] in clock.now }
        ) { "fetched \($0)" }
    }

    /// Saves "good" under "good" and `bad` under "bad", then runs `sql` on the file.
    func corrupt(_ sql: String, bad: String = "bad") async throws {
        let repository = try repository()
        try await repository.save("good", for: "good")
        try await repository.save(bad, for: "bad")
        try SQLiteDatabase(.file(path: path)).execute(sql)
    }

    /// A prefer-cache read of "bad" after a restart must be an error naming the file and key,
    /// then the fetched value; the row is gone and "good" stays.
    func expectCorruptRowIsAMissAnErrorAndRemoved(_ what: Comment) async throws {
        let restarted = try repository()
        var events: [CacheEvent<String>] = []
        for await event in restarted.events(for: "bad") {
            events.append(event)
            if event.cachedValue != nil { break }
        }
        #expect(events.map(\.summary) == ["error", "remote:fetched bad"], what)
        if case .error(let error as CacheError) = events.first {
            #expect(error.description.contains(path), what)
            #expect(error.description.contains("entry bad in"), what)
        }
        let fresh = try repository()
        #expect(try await fresh.value(for: "good", policy: .returnCacheDontLoad)?.value == "good", what)
        #expect(try await fresh.value(for: "bad", policy: .returnCacheDontLoad)?.value == "fetched bad", what)
    }

    @Test(arguments: ["-1e17", "'-Inf'", "1e300", "'yesterday'", "-9e999"])
    func aCorruptWriteTimeIsAMissAndAnErrorNotACrash(writtenAt: String) async throws {
        try await corrupt(
            #"UPDATE content_loading_cache SET written_at = \#(writtenAt) WHERE key = 'Swift.String|bad'"#)
        try await expectCorruptRowIsAMissAnErrorAndRemoved("written_at \(writtenAt)")
    }

    @Test(arguments: ["0", "-5", "'seven'", "1.5", "9223372036854775807"])
    func aCorruptVersionIsAMissAndAnErrorNotAHang(version: String) async throws {
        try await corrupt(#"UPDATE content_loading_cache SET version = \#(version) WHERE key = 'Swift.String|bad'"#)
        try await expectCorruptRowIsAMissAnErrorAndRemoved("version \(version)")
    }

    /// A large value lies mostly in overflow pages, which opening the cache does not read: a
    /// broken overflow chain (a link past the end of the file) costs only its own key, and the
    /// rest of the cache keeps working. (The cache used to read every value whole to measure it
    /// when opened, so the open failed.)
    @Test func aLargeValueWhoseOverflowPagesAreBrokenCostsOnlyItsOwnKey() async throws {
        try await corrupt("PRAGMA wal_checkpoint(TRUNCATE)", bad: String(repeating: "Z", count: 20_000))
        var file = try Data(contentsOf: URL(fileURLWithPath: path))
        let pageSize = Int(file[16]) << 8 | Int(file[17])
        var broken = 0
        for start in stride(from: pageSize, to: file.count, by: pageSize) {
            let page = file[start..<start + pageSize]
            // NB: an overflow page of the value, not its last: its link is set, its content all "Z".
            guard page.dropFirst(4).allSatisfy({ $0 == UInt8(ascii: "Z") }), page.prefix(4).contains(where: { $0 != 0 })
            else { continue }
            file.replaceSubrange(start..<start + 4, with: [0x00, 0xFF, 0xFF, 0xFF])
            broken += 1
        }
        #expect(broken > 0, "the value's overflow pages were found")
        try file.write(to: URL(fileURLWithPath: path))

        let restarted = try repository()
        #expect(try await restarted.value(for: "good", policy: .returnCacheDontLoad)?.value == "good")
        var events = restarted.events(for: "bad").makeAsyncIterator()
        let read = await events.next()
        #expect(read?.summary == "error")
        if case .error(let error as CacheError)? = read {
            #expect(error.description.contains("entry bad in \(path)"), "\(error)")
        }
        // NB: the fetched value cannot replace the broken row either: an error, and no value
        // the file does not hold.
        #expect(await events.next()?.summary == "error")
        try await restarted.save("new", for: "new")
        #expect(try await repository().value(for: "new", policy: .returnCacheDontLoad)?.value == "new")
    }

    /// NB: the file keeps the total its writes made (44 bytes here); a total it does not keep
    /// is measured, as here.
    @Test func aValueStoredAsTextIsMeasuredInBytes() async throws {
        try await corrupt(
            """
            UPDATE content_loading_cache_values SET value = CAST(value AS TEXT) || 'é' WHERE key = 'Swift.String|bad';
            UPDATE content_loading_cache_counter SET stored_bytes = NULL
            """)
        #expect(
            try sqlRows("SELECT typeof(value) FROM content_loading_cache_values ORDER BY key", in: path) == [
                "text", "blob",
            ])
        #expect(try await repository().disk?.storedBytes == 46, "the keys, the values, and 2 bytes of é")
    }

    @Test(arguments: ["NULL", "-1", "'44'", "44.5", "1000000000000000"])
    func aByteTotalTheFileKeepsThatDoesNotValidateIsMeasured(stored: String) async throws {
        try await corrupt("UPDATE content_loading_cache_counter SET stored_bytes = \(stored)")
        let restarted = try repository()
        #expect(await restarted.disk?.storedBytes == 44, "the keys and the values, measured")
        try await restarted.save("new", for: "new")
        #expect(try sqlRows("SELECT stored_bytes FROM content_loading_cache_counter", in: path) == ["65"], "44 and 21")
    }

    /// A total larger than the rows hold, but within the file's pages: the write that finds it
    /// over the limit even with every other entry gone measures before anything goes.
    @Test func aByteTotalTheFileKeepsThatIsTooLargeEvictsNothingElse() async throws {
        try await corrupt("UPDATE content_loading_cache_counter SET stored_bytes = 3000")
        let restarted = try repository(byteLimit: 100)
        try await restarted.save("new", for: "new")
        let keys = try await restarted.disk?.keysByAccess().sorted()
        #expect(keys == ["Swift.String|bad", "Swift.String|good", "Swift.String|new"])
        #expect(try sqlRows("SELECT stored_bytes FROM content_loading_cache_counter", in: path) == ["65"])
    }

    @Test func aRowClaimingAHugeSizeEvictsNothingElse() async throws {
        try await corrupt(#"UPDATE content_loading_cache SET size = 1000000000000000 WHERE key = 'Swift.String|bad'"#)
        let restarted = try repository(byteLimit: 1_000)
        try await restarted.save("new", for: "new")
        let keys = try await restarted.disk?.keysByAccess().sorted()
        #expect(keys == ["Swift.String|bad", "Swift.String|good", "Swift.String|new"])
        #expect(await restarted.disk?.storedBytes == 65, "measured from the keys and the JSON values")
    }

    @Test func aValueOverTheLimitIsNotStoredAndTheRestIsKept() async throws {
        let repository = try repository(byteLimit: 100)
        try await repository.save("kept", for: "a")
        let reader = repository.events(for: "b", policy: .returnCacheDontLoad)
        var iterator = reader.makeAsyncIterator()
        #expect(await iterator.next()?.summary == "noValue")
        let error = await #expect(throws: CacheError.self) {
            try await repository.save(String(repeating: "x", count: 200), for: "b")
        }
        #expect(error?.description.contains("limit of 100 bytes") == true)
        #expect(await iterator.next()?.summary == "error")
        #expect(try await repository.disk?.keysByAccess() == ["Swift.String|a"])
        #expect(try await self.repository().value(for: "a", policy: .returnCacheDontLoad)?.value == "kept")
    }

    @Test func keyBytesCountTowardTheLimit() async throws {
        let repository = try repository(byteLimit: 40)
        let longKey = String(repeating: "k", count: 35)  // 37 bytes as JSON, 7 for the value: 44 > 40
        await #expect(throws: CacheError.self) { try await repository.save("value", for: longKey) }
    }
}
