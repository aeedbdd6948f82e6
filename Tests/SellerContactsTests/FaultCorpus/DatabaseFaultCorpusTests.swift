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

    private func run(_ path: String, _ extra: [String] = []) async -> CommandResult {
        await runSellerContacts(["--url", contacts, "--database", path] + extra)
    }

    /// A database the command filled, with its bytes.
    private func syncedDatabase() async throws -> String {
        let path = directory.appendingPathComponent("synced.sqlite").path
        #expect(await run(path).status == 0)
        return path
    }

    private func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

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

    /// A synced database, its WAL folded into the file, and the file's bytes.
    private func foldedDatabase() async throws -> (path: String, bytes: Data) {
        let path = try await syncedDatabase()
        try SQLiteDatabase(.file(path: path)).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return (path, try bytes(path))
    }

    /// `user_version` is a signed number in the header (bytes 60–63, big-endian), so a damaged
    /// header can make it negative: one clear error naming the file and the version, and the
    /// file is not written. It was taken as the first migration to run, and the process
    /// crashed indexing the migrations with it (found by the random damage below).
    @Test func aNegativeSchemaVersionInTheHeaderIsAClearErrorAndIsNotWritten() async throws {
        let (path, whole) = try await foldedDatabase()
        var damaged = whole
        damaged[60] = 0x9F
        try damaged.write(to: URL(fileURLWithPath: path))
        expectOneClearErrorLine(
            await run(path, ["--offline"]), status: 1, mentioning: [path, "schema version -"], "a negative version")
        #expect(try bytes(path) == damaged, "the file was not written")
    }

    /// A file the command filled, its WAL folded in, with its bytes: a `--database`'s
    /// (`SQLiteStore`) or a `--cache`'s (`DiskCache`, the contacts as records).
    private func filledFile(_ option: String) async throws -> (path: String, bytes: Data) {
        guard option == "--cache" else { return try await foldedDatabase() }
        let path = directory.appendingPathComponent("cache.sqlite").path
        #expect(await runSellerContacts(["--url", contacts, "--cache", path]).status == 0)
        try SQLiteDatabase(.file(path: path)).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return (path, try bytes(path))
    }

    /// A filled file with bytes changed at random (a damaged disk, a bad copy), a fifth of
    /// them in the 100-byte header (sizes, counters, versions), read without a request: every
    /// run shows the contacts (or, from the cache, no value) or ends with one clear error line
    /// naming the file, and a `--database` run that fails writes nothing. 50 damaged files of
    /// each kind, 1,000 in the full fault corpus; a failure names its seed, and
    /// `CLK_DAMAGE_SEED=<seed>` plays it again.
    @Test(arguments: ["--database", "--cache"])
    func randomlyDamagedBytesShowTheContactsOrOneClearError(option: String) async throws {
        let (_, whole) = try await filledFile(option)
        let seed =
            ProcessInfo.processInfo.environment["CLK_DAMAGE_SEED"].flatMap(UInt64.init) ?? .random(in: 0...UInt64.max)
        var random = SeededGenerator(seed: seed)
        for run in 0..<RandomizedRuns.count(full: 1_000, usual: 50) {
            var damaged = whole
            for _ in 0..<[1, 2, 4, 8, 32].randomElement(using: &random)! {
                let inHeader = Int.random(in: 0..<5, using: &random) == 0
                let offset = Int.random(in: 0..<(inHeader ? 100 : damaged.count), using: &random)
                damaged[offset] = UInt8.random(in: 0...255, using: &random)
            }
            let path = directory.appendingPathComponent("damaged-\(run).sqlite").path
            try damaged.write(to: URL(fileURLWithPath: path))
            let context = "\(option), seed \(seed), run \(run)"
            let result =
                option == "--cache"
                ? await runSellerContacts(["--url", contacts, "--cache", path, "--policy", "require"])
                : await self.run(path, ["--offline"])
            guard result.status != 0 else {
                let shown = ["from the database", "value: ", "no cached value"].contains { result.output.contains($0) }
                #expect(shown, "\(context): \(result.output)")
                #expect(!result.errors.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(context)")
                continue
            }
            expectOneClearErrorLine(result, status: 1, mentioning: [path], context)
            if option == "--database" { #expect(try bytes(path) == damaged, "\(context): the file was not written") }
        }
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
