import ContentLoadingRepository
import Foundation
import Testing

/// The disk tier under corrupt or hostile rows: each is a miss and an error naming the file and
/// the key, and is removed; other keys and the memory tier keep working; nothing good is deleted.
@Suite(.timeLimit(.minutes(1)))
struct DiskCacheCorruptionTests {
    let path: String
    let clock = TestWallClock()

    init() throws { path = try temporaryCachePath() }

    func repository(byteLimit: Int = 1 << 20) throws -> KeyedRepository<String, String> {
        KeyedRepository(
            disk: try DiskCache(.file(path: path), byteLimit: byteLimit), now: { [clock] in clock.now }
        ) { "fetched \($0)" }
    }

    /// Saves "good" under "good" and "bad" under "bad", then runs `sql` on the file.
    func corrupt(_ sql: String) async throws {
        let repository = try repository()
        try await repository.save("good", for: "good")
        try await repository.save("bad", for: "bad")
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
