import ContentLoadingRepository
import Foundation
import KitTestSupport
import SellerContacts
import Testing

/// A process killed with SIGKILL in the middle of a large write leaves the database readable
/// with the previous data intact.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct CrashSafetyTests {
    @Test func killedWriterLeavesThePreviousDataIntact() async throws {
        let path = try makeTemporaryDirectory().appendingPathComponent("contacts.sqlite").path
        let previous = (1...50).map { SellerContacts(address: "Street \($0)", order: $0, phone: "+1 555 \($0)") }
        let synced = Date(timeIntervalSince1970: 1_700_000_000)
        try await SQLiteStore<SellerContacts>(.file(path: path)).replaceAll(with: previous, syncedAt: synced)
        let writer = ChildProcess.productsDirectory.appendingPathComponent("sqlite-crash-writer")
        #expect(FileManager.default.isExecutableFile(atPath: writer.path), "the writer was built at \(writer.path)")
        for round in 0..<12 {
            let stopAt = 1_000 * (round % 6 + 1)
            let mode = round.isMultiple(of: 2) ? "replace" : "write"
            let child = try ChildProcess(writer, arguments: [path, "20000", String(stopAt), mode])
            let line = try child.readLine()
            #expect(line.hasPrefix("writing"), "round \(round): the writer said \(line)")
            child.kill()

            let store = try SQLiteStore<SellerContacts>(.file(path: path))
            #expect(try await store.fetchAll() == previous, "round \(round) (\(mode), killed after \(stopAt) rows)")
            #expect(try await store.lastSyncDate() == synced)
            let database = try SQLiteDatabase(.file(path: path))
            let check = try database.prepare("PRAGMA integrity_check")
            #expect(try check.step())
            #expect(check.text(at: 0) == "ok")
        }
    }
}
