import Foundation
import KitTestSupport
import Testing

@testable import ContentLoadingRepository

/// Opening a `DiskCache` discards the entries of a format other than its own. The counter row
/// keeps the range of the entries' formats, so that an open whose format is the whole range
/// reads no entry (each open read every entry's row: an app with a full cache paid it at each
/// launch, on the thread that opened the cache).
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct DiskCacheFormatCheckTests {
    let path: String

    init() throws { path = try temporaryCachePath() }

    func repository(formatVersion: Int) throws -> KeyedRepository<String, String> {
        KeyedRepository(disk: try DiskCache(.file(path: path), formatVersion: formatVersion)) { _ in "fetched" }
    }

    /// The counter row's range, as `lowest…highest` (`NULL` for none).
    func range() throws -> String {
        try sqlRows(
            "SELECT quote(lowest_format) || '…' || quote(highest_format) FROM content_loading_cache_counter", in: path
        ).joined()
    }

    @Test func theRangeIsWidenedByEveryWriteAndNarrowedByTheOpenThatDiscards() async throws {
        let own = try repository(formatVersion: 2)
        let otherBuild = try repository(formatVersion: 3)
        #expect(try range() == "NULL…NULL", "no entry")
        try await own.save("this format", for: "b")
        #expect(try range() == "2…2")
        try await otherBuild.save("other format", for: "c")
        #expect(try range() == "2…3")
        _ = try repository(formatVersion: 2)
        #expect(try range() == "2…2")
        #expect(try sqlRows("SELECT key FROM content_loading_cache", in: path) == ["Swift.String|b"])
    }

    /// The entries of another format gone without a discard (removed): the open reads the
    /// formats and finds only its own, and its first write narrows the range; a write of the
    /// other format between the two keeps it wide, and the next open discards that write.
    @Test(arguments: [false, true])
    func theFirstWriteAfterAnOpenThatFoundOnlyItsFormatNarrowsTheRange(writeBetween: Bool) async throws {
        let own = try repository(formatVersion: 2)
        let otherBuild = try repository(formatVersion: 3)
        try await otherBuild.save("other format", for: "c")
        try await own.remove("c")
        #expect(try range() == "2…3")
        let reopened = try repository(formatVersion: 2)
        if writeBetween { try await otherBuild.save("other format again", for: "d") }
        try await reopened.save("this format", for: "b")
        #expect(try range() == (writeBetween ? "2…3" : "2…2"))
        _ = try repository(formatVersion: 2)
        #expect(try sqlRows("SELECT key FROM content_loading_cache", in: path) == ["Swift.String|b"])
    }

    /// Entries written with an earlier format (an app's update) and with a later one (an
    /// older build of the app opening the file again) are both discarded; the opener's stay.
    @Test(arguments: [1, 3])
    func entriesOfAFormatBelowOrAboveTheOpenersAreDiscardedAndItsOwnKept(other: Int) async throws {
        // NB: both opened first, as an app and its extension of another build are: each open
        // discards what the other wrote before it.
        let otherBuild = try repository(formatVersion: other)
        let own = try repository(formatVersion: 2)
        try await otherBuild.save("other format", for: "a")
        try await own.save("this format", for: "b")
        try await otherBuild.save("other format again", for: "c")
        let reopened = try repository(formatVersion: 2)
        #expect(try await reopened.disk?.keysByAccess() == ["Swift.String|b"])
        #expect(try await reopened.value(for: "a", policy: .returnCacheDontLoad) == nil)
        #expect(try await reopened.value(for: "b", policy: .returnCacheDontLoad)?.value == "this format")
    }

    @Test func anOpenReadsTheEntriesOnlyWhenItsFormatIsNotTheWholeRange() throws {
        let database = try SQLiteDatabase(.file(path: path))
        try database.prepareForStore(migrations: DiskCache.migrations)
        func onlyFormat(_ format: Int) throws -> Bool {
            try DiskCache.versionAndFormats(in: database, format: format).1
        }
        #expect(try onlyFormat(2), "no entry")
        try database.execute("UPDATE content_loading_cache_counter SET lowest_format = 2, highest_format = 2")
        #expect(try onlyFormat(2))
        #expect(try !onlyFormat(1))
        try database.execute("UPDATE content_loading_cache_counter SET lowest_format = 1")
        #expect(try !onlyFormat(2))
        try database.execute("UPDATE content_loading_cache_counter SET lowest_format = NULL")
        #expect(try !onlyFormat(2), "half a range")
        try database.execute("DELETE FROM content_loading_cache_counter")
        #expect(try !onlyFormat(2), "no counter row")
    }

    /// A file written before the range was kept (schema version 11) gets the range of the
    /// entries it holds.
    @Test(arguments: [[], [1], [1, 2], [3, 1, 2]])
    func anEarlierFileGetsTheRangeOfItsEntries(formats: [Int]) throws {
        let earlier = try SQLiteDatabase(.file(path: path))
        try earlier.prepareForStore(migrations: Array(DiskCache.migrations.prefix(11)))
        for (index, format) in formats.enumerated() {
            try earlier.execute(
                """
                INSERT INTO content_loading_cache (key, format, version, size, written_at, accessed_at)
                    VALUES ('k\(index)', \(format), \(index + 1), 3, 1000000, 1000000)
                """)
        }
        earlier.close()
        try SQLiteDatabase(.file(path: path)).prepareForStore(migrations: DiskCache.migrations)
        let expected = formats.min().map { "\($0)…\(formats.max() ?? $0)" } ?? "NULL…NULL"
        #expect(try range() == expected)
    }

    /// A counter row that does not validate starts again with the range of the formats stored
    /// (and the writer's): the next open of another format still finds them.
    @Test func aCounterRowStartedAgainMeasuresTheFormatsStored() async throws {
        let own = try repository(formatVersion: 2)
        try await repository(formatVersion: 1).save("format 1", for: "a")
        // NB: a version that the next write's cannot follow, and a range that says nothing.
        try SQLiteDatabase(.file(path: path)).execute(
            """
            UPDATE content_loading_cache_counter
                SET last_version = \(Int64.max >> 2), lowest_format = NULL, highest_format = NULL
            """)
        try await own.save("format 2", for: "b")
        #expect(try range() == "1…2")
        _ = try repository(formatVersion: 2)
        #expect(try sqlRows("SELECT key FROM content_loading_cache", in: path) == ["Swift.String|b"])
    }
}
