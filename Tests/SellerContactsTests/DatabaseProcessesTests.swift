import ContentLoadingRepository
import Foundation
import KitTestSupport
import SellerContacts
import Testing

/// Several processes on one database file: creating it at once, and reading while another
/// holds the write lock.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct DatabaseProcessesTests {
    let writer = ChildProcess.productsDirectory.appendingPathComponent("sqlite-crash-writer")

    @Test func processesCreatingOneDatabaseAtOnceAllSucceed() async throws {
        #expect(FileManager.default.isExecutableFile(atPath: writer.path), "the writer was built at \(writer.path)")
        for round in 0..<4 {
            let path = try makeTemporaryDirectory().appendingPathComponent("contacts.sqlite").path
            // NB: a STOP_AT past the row count: each writes 50 rows, commits and exits.
            let children = try (0..<6).map { _ in try ChildProcess(writer, arguments: [path, "50", "1000000"]) }
            for (index, child) in children.enumerated() {
                let status = await child.exitStatus(within: .seconds(30))
                #expect(status == 0, "round \(round), process \(index): \(child.remainingErrors())")
            }
            let store = try SQLiteStore<SellerContacts>(.file(path: path))
            #expect(try await store.fetchAll().count == 50)
        }
    }

    /// 6 processes at a time create one new disk cache file (20 rounds; 140, or 840
    /// processes, in the full fault corpus): every one opens it and stores its entries.
    @Test func processesCreatingOneCacheFileAtOnceAllSucceed() async throws {
        for round in 0..<(FaultCorpus.isFull ? 140 : 20) {
            let path = try makeTemporaryDirectory().appendingPathComponent("cache.sqlite").path
            let children = try (0..<6).map { _ in try ChildProcess(writer, arguments: [path, "5", "0", "cache"]) }
            for (index, child) in children.enumerated() {
                let status = await child.exitStatus(within: .seconds(30))
                #expect(status == 0, "round \(round), process \(index): \(child.remainingErrors())")
            }
            let cache = KeyedRepository<Int, String>(disk: try DiskCache(.file(path: path))) { "\($0)" }
            #expect(try await cache.value(for: 4, policy: .returnCacheDontLoad)?.value == "row 4")
        }
    }

    @Test func aReaderOpensAndReadsWhileAnotherProcessHoldsTheWriteLock() async throws {
        let path = try makeTemporaryDirectory().appendingPathComponent("contacts.sqlite").path
        let stored = (1...3).map { SellerContacts(address: "Street \($0)", order: $0, phone: nil) }
        try await SQLiteStore<SellerContacts>(.file(path: path)).replaceAll(with: stored, syncedAt: nil)
        let child = try ChildProcess(writer, arguments: [path, "5000", "1000"])
        defer { child.kill() }
        #expect(try child.readLine().hasPrefix("writing"), "the writer holds its transaction open")
        let reader = try SQLiteStore<SellerContacts>(.file(path: path))
        #expect(try await reader.fetchAll() == stored)
    }

    /// Another process (python's sqlite3) holds the write lock of a database in rollback-journal
    /// mode; the rows stay readable, and opening the store must not need that lock.
    @Test func openingNeedsNoWriteLockEvenBeforeTheSwitchToWAL() async throws {
        let path = try makeTemporaryDirectory().appendingPathComponent("contacts.sqlite").path
        let stored = (1...3).map { SellerContacts(address: "Street \($0)", order: $0, phone: nil) }
        try await SQLiteStore<SellerContacts>(.file(path: path)).replaceAll(with: stored, syncedAt: nil)
        try SQLiteDatabase(.file(path: path)).execute("PRAGMA journal_mode = DELETE")
        let holder = try ChildProcess.holdingSQLiteWriteLock(on: path, running: "DELETE FROM seller_contacts")
        defer { holder.stop() }
        let reader = try SQLiteStore<SellerContacts>(.file(path: path))
        #expect(try await reader.fetchAll() == stored)
    }
}
