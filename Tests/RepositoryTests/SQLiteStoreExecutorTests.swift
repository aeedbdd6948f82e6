import ContentLoadingRepository
import ContentLoadingSupport
import Foundation
import KitTestSupport
import Testing

/// A `SQLiteStore` runs off Swift's cooperative pool: writes that wait out another
/// connection's lock hold none of the pool's few threads, and other tasks go on meanwhile.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct SQLiteStoreExecutorTests {
    @Test func writesWaitingForAnotherConnectionsLockLeaveThePoolFree() async throws {
        let path = try temporaryDatabasePath()
        _ = try SQLiteStore<Note>(.file(path: path))
        // More waiting writes than the pool has threads: on the pool, they would hold them all.
        let count = ProcessInfo.processInfo.activeProcessorCount + 2
        let writes: [@Sendable () async throws -> Void] = try (0..<count).map { index in
            let store = try SQLiteStore<Note>(.file(path: path))
            return { try await store.write([Note(id: index, title: "note \(index)")]) }
        }
        let lock = try SQLiteDatabase(.file(path: path))
        try lock.execute("BEGIN IMMEDIATE")
        let ended = Locked(0)
        let tasks = writes.map { write in
            Task.detached {
                defer { ended.withLock { $0 += 1 } }
                try await write()
            }
        }
        let answer = await Task.detached { "the pool runs other work" }.value
        #expect(answer == "the pool runs other work")
        #expect(ended.withLock { $0 } == 0, "a task on the pool waited until the writes gave up on the lock (5 s)")
        try lock.execute("COMMIT")
        // NB: not `try await task.value`: the answer is what is checked. On a loaded machine it
        // may come late but still before the writes gave up (CI's run under ASan, every test
        // side by side), and a write whose 5 s ran out while the others took the lock after the
        // commit then fails with "database is locked", with the pool free all along.
        for task in tasks { _ = await task.result }
    }
}
