import ContentLoadingRepository
import Foundation
import KitTestSupport
import SellerContactsCommand
import Testing

/// Files whose bytes or rows were damaged (a failing disk, a bad copy, another program's
/// writes): every run shows what it still reads or ends with one clear error line naming the
/// file, never a crash or a hang.
extension DatabaseFaultCorpusTests {
    /// A synced database, its WAL folded into the file, and the file's bytes.
    func foldedDatabase() async throws -> (path: String, bytes: Data) {
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
    func filledFile(_ option: String) async throws -> (path: String, bytes: Data) {
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
            let failed = expectShownOrOneClearErrorLine(
                result, shown: ["from the database", "value: ", "no cached value"], naming: path, context)
            if failed, option == "--database" {
                #expect(try bytes(path) == damaged, "\(context): the file was not written")
            }
        }
    }

    /// Values a row may hold that the kit never writes: out of range, of the wrong type, text
    /// that is not JSON, JSON of another shape, a one-byte blob.
    static let hostileValues = [
        "NULL", "-1", "0", "9223372036854775807", "-9223372036854775808", "1e300", "3.5", "'x'", "''",
        "X'00'", "'[]'", "'{}'", "'[1,1]'", "'{\"id\":1}'", "'null'",
    ]

    /// A `--cache` file whose rows were given values the kit never writes, a column of one row
    /// (every row of a table without row ids) at a time, one to three changes a file, read
    /// without a request, then fetched into: each run shows the contacts (or no value) or ends
    /// with one clear error line naming the file. 20 files, 400 in the full fault corpus; a
    /// failure names its seed, and `CLK_DAMAGE_SEED=<seed>` plays it again.
    @Test func hostileRowValuesShowTheContactsOrOneClearError() async throws {
        let (filled, whole) = try await filledFile("--cache")
        let columns = try Self.columnsOfTablesWithRows(in: filled)
        let seed =
            ProcessInfo.processInfo.environment["CLK_DAMAGE_SEED"].flatMap(UInt64.init) ?? .random(in: 0...UInt64.max)
        var random = SeededGenerator(seed: seed)
        for run in 0..<RandomizedRuns.count(full: 400, usual: 20) {
            let path = directory.appendingPathComponent("rows-\(run).sqlite").path
            try whole.write(to: URL(fileURLWithPath: path))
            var changes: [String] = []
            do {
                let database = try SQLiteDatabase(.file(path: path))
                try database.execute("PRAGMA ignore_check_constraints = 1")
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let (table, column, rows) = columns.randomElement(using: &random)!
                    let value = Self.hostileValues.randomElement(using: &random)!
                    let row = rows.map { " WHERE rowid = \($0.randomElement(using: &random)!)" } ?? ""
                    let change = "UPDATE \"\(table)\" SET \"\(column)\" = \(value)\(row)"
                    // NB: a change a constraint refuses (NOT NULL, a key taken) is left out.
                    if (try? database.execute(change)) != nil { changes.append(change) }
                }
            }
            let context = "seed \(seed), run \(run): \(changes)"
            for policy in ["require", "ignore"] {
                let result = await runSellerContacts(["--url", contacts, "--cache", path, "--policy", policy])
                expectShownOrOneClearErrorLine(
                    result, shown: ["value: ", "no cached value"], naming: path, "\(context), \(policy)")
            }
        }
    }

    /// Each column of each of the kit's tables that holds rows, with the row ids of the table
    /// (`nil` for a table without row ids).
    static func columnsOfTablesWithRows(in path: String) throws -> [(String, String, [Int]?)] {
        let database = try SQLiteDatabase(.file(path: path))
        let tables = try database.prepare(
            "SELECT name, sql LIKE '%WITHOUT ROWID%' FROM sqlite_master WHERE type = 'table' AND name LIKE 'content_loading_%'"
        )
        var columns: [(String, String, [Int]?)] = []
        while try tables.step() {
            let table = tables.text(at: 0) ?? ""
            let rowIDs = try database.prepare(
                tables.int(at: 1) == 0 ? "SELECT rowid FROM \"\(table)\"" : "SELECT 0 FROM \"\(table)\"")
            var rows: [Int] = []
            while try rowIDs.step() { rows.append(rowIDs.int(at: 0)) }
            guard !rows.isEmpty else { continue }
            let names = try database.prepare("SELECT name FROM pragma_table_info('\(table)')")
            while try names.step() {
                columns.append((table, names.text(at: 0) ?? "", tables.int(at: 1) == 0 ? rows : nil))
            }
        }
        return columns
    }
}
