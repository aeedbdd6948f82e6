import ContentLoading
import ContentLoadingSupport
import Foundation
import KitTestSupport
import Testing

@testable import ContentLoadingRepository

/// A `DiskCache` write that meets another connection's write lock waits for it without holding
/// a thread of Swift's cooperative pool; this connection's writes that come meanwhile wait
/// behind it and commit in the order they came; one that waits longer than the busy timeout
/// fails saying the database is locked, and writes nothing.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct DiskCacheWriteLockTests {
    let path: String
    init() throws { path = try temporaryDatabasePath() }

    /// A cache over the file whose writes wait up to two minutes for the lock, not the busy
    /// timeout: in a run of the whole package on two cores, a test took longer than 5 s to see
    /// its writes wait, and the first one had given up.
    func patientCache() async throws -> DiskCache {
        let disk = try DiskCache(.file(path: path))
        await disk.setLockTimeout(.seconds(120))
        return disk
    }

    func write(_ text: String, for key: String, to disk: DiskCache) async throws -> UInt64 {
        try await disk.write(Data(text.utf8), for: key, writtenAt: Date(), validators: Validators()).version
    }

    func stored(_ key: String, in disk: DiskCache) async throws -> String? {
        try await disk.entry(for: key, now: Date()).map { String(decoding: $0.data, as: UTF8.self) }
    }

    /// Whether `disk` comes to have a write waiting for the lock and `behind` more waiting for
    /// their turn: what a waiting write shows, which sends no signal of its own.
    func waits(_ disk: DiskCache, behind: Int = 0) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let queue = disk.writeLock.queue
            if queue.isHeld, queue.waiting == behind { return true }
            await Task.yield()
        }
        return false
    }

    @Test func writesWaitingForAnotherConnectionsLockLeaveThePoolFree() async throws {
        _ = try DiskCache(.file(path: path))
        // NB: more waiting writes than the pool has threads, each over a connection of its own:
        // blocked in SQLite's busy wait, they held every thread until they gave up (5 s).
        var disks: [DiskCache] = []
        for _ in 0..<ProcessInfo.processInfo.activeProcessorCount + 2 { disks.append(try await patientCache()) }
        let lock = try SQLiteDatabase(.file(path: path))
        try lock.execute("BEGIN IMMEDIATE")
        let ended = Locked(0)
        let tasks = disks.enumerated().map { index, disk in
            Task.detached {
                defer { ended.withLock { $0 += 1 } }
                return try await write("value \(index)", for: "key \(index)", to: disk)
            }
        }
        for disk in disks { #expect(await waits(disk), "each write waits for the lock") }
        let answer = await Task.detached { "the pool runs other work" }.value
        #expect(answer == "the pool runs other work")
        #expect(ended.withLock { $0 } == 0, "no write gave up on the lock while a task on the pool waited")
        try lock.execute("COMMIT")
        for task in tasks { _ = try await task.value }
        for (index, disk) in disks.enumerated() {
            #expect(try await stored("key \(index)", in: disk) == "value \(index)")
        }
    }

    @Test func writesThatComeWhileOneWaitsCommitAfterItInTheOrderTheyCame() async throws {
        let disk = try await patientCache()
        let lock = try SQLiteDatabase(.file(path: path))
        try lock.execute("BEGIN IMMEDIATE")
        var writes: [Task<UInt64, any Error>] = []
        for text in ["first", "second", "third"] {
            writes.append(Task { try await write(text, for: "key", to: disk) })
            #expect(await waits(disk, behind: writes.count - 1), "\(text) waits")
        }
        let answer = try await disk.entry(for: "key", now: Date())
        #expect(answer == nil, "a read runs while the writes wait")
        try lock.execute("COMMIT")
        var versions: [UInt64] = []
        for write in writes { versions.append(try await write.value) }
        #expect(versions == versions.sorted() && Set(versions).count == 3, "committed in order: \(versions)")
        #expect(try await stored("key", in: disk) == "third")
        #expect(!disk.writeLock.queue.isHeld)
    }

    @Test func aWriteWhoseTaskIsCancelledWhileItWaitsIsStillMade() async throws {
        let disk = try await patientCache()
        let lock = try SQLiteDatabase(.file(path: path))
        try lock.execute("BEGIN IMMEDIATE")
        let waiting = Task { try await write("kept", for: "key", to: disk) }
        #expect(await waits(disk))
        waiting.cancel()
        try lock.execute("COMMIT")
        _ = try await waiting.value
        #expect(try await stored("key", in: disk) == "kept")
    }

    @Test func aWriteThatWaitsLongerThanItsTimeoutFailsAndWritesNothing() async throws {
        let disk = try DiskCache(.file(path: path))
        #expect(await disk.lockTimeout == SQLiteDatabase.busyTimeout, "the busy timeout unless a test sets another")
        await disk.setLockTimeout(.milliseconds(200))
        _ = try await write("before", for: "key", to: disk)
        let lock = try SQLiteDatabase(.file(path: path))
        try lock.execute("BEGIN IMMEDIATE")
        let start = ContinuousClock.now
        let error = await #expect(throws: SQLiteError.self) { try await write("after", for: "key", to: disk) }
        #expect(ContinuousClock.now - start >= .milliseconds(200))
        #expect(error?.code == 5, "SQLITE_BUSY")
        #expect(error?.description.contains("cannot write the cache in database \(path): database is locked") == true)
        try lock.execute("COMMIT")
        #expect(try await stored("key", in: disk) == "before")
        #expect(!disk.writeLock.queue.isHeld)
        #expect(await disk.storedBytes == "key".utf8.count + "before".utf8.count, "the byte total as it was")
    }
}
