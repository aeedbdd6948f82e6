import ContentLoadingRepository
import Foundation
import KitTestSupport
import SellerContacts
import SellerContactsCommand
import Testing

/// `seller-contacts --database` (and, damaged at random, `--cache`) against broken, foreign and
/// busy database files: a clear error naming the file, and nothing good deleted or overwritten.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct DatabaseFaultCorpusTests {
    let directory: URL
    let contacts: String

    init() throws {
        directory = try makeTemporaryDirectory()
        contacts = try fixtureURL("contacts").absoluteString
    }

    func run(_ path: String, _ extra: [String] = []) async -> CommandResult {
        await runSellerContacts(["--url", contacts, "--database", path] + extra)
    }

    /// A database the command filled, with its bytes.
    func syncedDatabase() async throws -> String {
        let path = directory.appendingPathComponent("synced.sqlite").path
        #expect(await run(path).status == 0)
        return path
    }

    func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test(arguments: ["-1e17", "-inf", "1e300", "nan", "soon"])
    func aCorruptSyncTimeReadsAsNeverSyncedAndKeepsTheData(lastSync: String) async throws {
        let path = try await syncedDatabase()
        try SQLiteDatabase(.file(path: path)).execute(
            "UPDATE content_loading_metadata SET value = '\(lastSync)' WHERE key = 'last_sync'")
        let offline = await run(path, ["--offline"])
        #expect(offline.status == 0, "last_sync \(lastSync): \(offline.errors)")
        #expect(offline.output.contains("success (3 contacts from the database)"), "\(offline.output)")
        let store = try SQLiteStore<SellerContacts>(.file(path: path))
        #expect(try await store.fetchAll().isEmpty == false, "the data stays")
        #expect(try await store.lastSyncDate() == nil)
        #expect(await run(path).status == 0, "and the next sync writes a good time")
        #expect(try await store.lastSyncDate() != nil)
    }

    @Test func randomBytesAreRefusedAndLeftAlone() async throws {
        let path = directory.appendingPathComponent("random.sqlite").path
        var generator = SystemRandomNumberGenerator()
        let garbage = Data((0..<16_384).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try garbage.write(to: URL(fileURLWithPath: path))
        expectOneClearErrorLine(await run(path), status: 1, mentioning: [path], "random bytes")
        #expect(try bytes(path) == garbage)
    }

    @Test func aTruncatedDatabaseIsAClearErrorAndIsNotWritten() async throws {
        let path = try await syncedDatabase()
        // NB: folded into the main file first, so that cutting it cuts real pages.
        try SQLiteDatabase(.file(path: path)).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let whole = try bytes(path)
        let cut = whole.prefix(whole.count / 2 + 100)
        try cut.write(to: URL(fileURLWithPath: path))
        expectOneClearErrorLine(await run(path), status: 1, mentioning: [path, "malformed"], "a truncated file")
        #expect(try bytes(path) == cut, "the file was not written")
    }

    @Test func anotherAppsDatabaseIsRefusedAndLeftAlone() async throws {
        let path = directory.appendingPathComponent("notes.sqlite").path
        try SQLiteDatabase(.file(path: path)).execute(
            "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')")
        let before = try bytes(path)
        expectOneClearErrorLine(
            await run(path), status: 1, mentioning: [path, "not created by ContentLoadingKit", "notes"], "foreign")
        #expect(try bytes(path) == before)
    }

    @Test func aDirectoryIsAClearError() async throws {
        let path = directory.path
        expectOneClearErrorLine(await run(path), status: 1, mentioning: [path], "a directory")
    }

    @Test func aMissingParentFolderIsAClearError() async throws {
        let path = directory.appendingPathComponent("no/such/folder/contacts.sqlite").path
        expectOneClearErrorLine(await run(path), status: 1, mentioning: [path], "a missing parent folder")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("no").path))
    }

    @Test func aReadOnlyFileKeepsItsContacts() async throws {
        let path = try await syncedDatabase()
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path) }
        // NB: root may write a read-only file anyway; either way the contacts are shown and kept.
        let offline = await run(path, ["--offline"])
        #expect(offline.status == 0)
        #expect(offline.output.contains("3 contacts from the database"))
        _ = await run(path)
        #expect(try await SQLiteStore<SellerContacts>(.file(path: path)).fetchAll().count == 3)
    }

    @Test(FaultCorpus.fullOnly)
    func aLockHeldByAnotherProcessFailsTheSyncAfterTheBusyTimeoutAndKeepsTheContacts() async throws {
        let path = try await syncedDatabase()
        let holder = try ChildProcess.holdingSQLiteWriteLock(on: path)
        defer { holder.stop() }
        let result = await run(path)
        #expect(result.status == 0, "the stored contacts were shown")
        #expect(result.output.contains("sync: failed; still showing 3 stored contacts"))
        expectOneClearErrorLine(result, status: 0, mentioning: [path, "database is locked"], "a held lock")
        holder.stop()
        #expect(try await SQLiteStore<SellerContacts>(.file(path: path)).fetchAll().count == 3)
    }

    @Test func twoProcessesCreatingAndSyncingAtOnceBothSucceed() async throws {
        let command = ChildProcess.productsDirectory.appendingPathComponent("seller-contacts")
        for round in 0..<3 {
            let path = directory.appendingPathComponent("shared-\(round).sqlite").path
            let children = try (0..<2).map { _ in
                try ChildProcess(command, arguments: ["--url", contacts, "--database", path])
            }
            for child in children {
                #expect(await child.exitStatus(within: .seconds(30)) == 0, "round \(round): \(child.remainingErrors())")
            }
            #expect(try await SQLiteStore<SellerContacts>(.file(path: path)).fetchAll().count == 3)
        }
    }
}
