import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import Foundation
import KitTestSupport
import Testing

/// A large value is written once, with its entry: what only changes the entry's bookkeeping
/// later (the time it was read, written with the next write; a fetch that found the value
/// unchanged) writes the bookkeeping, not the value again.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct DiskCacheValueWritesTests {
    let path: String
    init() throws { path = try temporaryCachePath() }

    /// The bytes the file's write-ahead log holds.
    func logBytes() throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path + "-wal")
        return try #require(attributes[.size] as? Int, "the log's size")
    }

    @Test func readsAndUnchangedFetchesOfALargeValueDoNotWriteItAgain() async throws {
        let big = String(repeating: "A", count: 1 << 20)
        let repository = KeyedRepository<String, String>(disk: try DiskCache(.file(path: path))) { key, validators in
            validators.entityTag == "v1"
                ? .notModified(Validators(entityTag: "v1")) : .modified(big, Validators(entityTag: "v1"))
        }
        try await repository.refresh("big")
        try SQLiteDatabase(.file(path: path)).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        #expect(try logBytes() == 0)

        for round in 0..<4 {
            repository.memory.removeAll()
            #expect(try await repository.value(for: "big", policy: .returnCacheDontLoad)?.value.count == 1 << 20)
            try await repository.save("\(round)", for: "small")  // NB: writes the read time of "big" too
            try await repository.refresh("big")  // NB: a 304: the age starts again
        }
        let logged = try logBytes()
        #expect(logged < 256 << 10, "the 1 MiB value is not in the log: \(logged) bytes")
        repository.memory.removeAll()
        #expect(try await repository.value(for: "big", policy: .returnCacheDontLoad)?.value == big)
    }
}
