import ContentLoadingRepository
import Foundation
import KitTestSupport
import Testing

/// A record whose second migration is broken.
private struct BrokenNote: SQLiteRecord {
    let id: Int
    static let tableName = "broken_notes"
    static let migrations = ["CREATE TABLE broken_notes (id INTEGER PRIMARY KEY)", "THIS IS NOT SQL"]
    static let columns = ["id"]
    static let orderBy = "id"
    func bind(to statement: SQLiteStatement) throws { try statement.bind(id, at: 1) }
    init(row: SQLiteStatement) throws { id = row.int(at: 0) }
    static func bind(id: Int, to statement: SQLiteStatement, at index: Int32) throws {
        try statement.bind(id, at: index)
    }
}

/// What a database file holds, read through a connection of its own.
private struct FileFacts: Equatable {
    var names: [String]
    var userVersion: Int
    var applicationID: Int
    var journalMode: String

    init(_ path: String) throws {
        let database = try SQLiteDatabase(.file(path: path))
        func value(_ sql: String) throws -> SQLiteStatement {
            let statement = try database.prepare(sql)
            _ = try statement.step()
            return statement
        }
        let names = try database.prepare("SELECT name FROM sqlite_master ORDER BY name")
        self.names = []
        while try names.step() { self.names.append(names.text(at: 0) ?? "") }
        userVersion = try value("PRAGMA user_version").int(at: 0)
        applicationID = try value("PRAGMA application_id").int(at: 0)
        journalMode = try value("PRAGMA journal_mode").text(at: 0) ?? ""
    }
}

/// The kit changes only databases it created: another app's database is refused before
/// anything in it changes, and a failed migration changes nothing.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct SQLiteOwnershipTests {
    let path: String

    init() throws {
        path = try temporaryDatabasePath()
    }

    @Test func anotherAppsDatabaseIsRefusedAndLeftAsItWas() throws {
        let other = try SQLiteDatabase(.file(path: path))
        try other.execute("CREATE TABLE diary (day TEXT, entry TEXT); INSERT INTO diary VALUES ('mon', 'hello')")
        let before = try FileFacts(path)
        let error = #expect(throws: SQLiteError.self) { try SQLiteStore<Note>(.file(path: path)) }
        #expect(error?.description.contains(path) == true)
        #expect(error?.description.contains("not created by ContentLoadingKit") == true)
        #expect(error?.description.contains("diary") == true)
        #expect(try FileFacts(path) == before)
        #expect(before.journalMode == "delete", "not switched to WAL")
    }

    @Test(arguments: ["PRAGMA user_version = 7", "PRAGMA application_id = 42"])
    func aForeignVersionOrApplicationIsRefused(pragma: String) throws {
        try SQLiteDatabase(.file(path: path)).execute(pragma)
        let before = try FileFacts(path)
        #expect(throws: SQLiteError.self) { try SQLiteStore<Note>(.file(path: path)) }
        #expect(try FileFacts(path) == before)
    }

    /// `user_version` is a signed number in the file's header, so a damaged header (a bit
    /// flipped on disk, a bad copy) can make it negative. Opening says so, naming the file and
    /// the version, and changes nothing; it once took the number as the first migration to
    /// run, and indexing the migrations with it crashed the process.
    @Test(arguments: [-1, -1_627_389_939])
    func aNegativeSchemaVersionIsAClearErrorAndChangesNothing(version: Int) throws {
        _ = try SQLiteStore<Note>(.file(path: path))
        try SQLiteDatabase(.file(path: path)).execute("PRAGMA user_version = \(version)")
        let before = try FileFacts(path)
        #expect(before.userVersion == version)
        let error = #expect(throws: SQLiteError.self) { try SQLiteStore<Note>(.file(path: path)) }
        #expect(error?.description.contains(path) == true, "\(String(describing: error))")
        #expect(error?.description.contains("schema version \(version)") == true, "\(String(describing: error))")
        #expect(try FileFacts(path) == before)
    }

    @Test func aFailedMigrationChangesNothing() throws {
        let error = #expect(throws: SQLiteError.self) { try SQLiteStore<BrokenNote>(.file(path: path)) }
        #expect(error?.operation == "migrate to version 3")
        let after = try FileFacts(path)
        #expect(after.names.isEmpty, "no migration was kept: \(after.names)")
        #expect(after.userVersion == 0)
        #expect(after.applicationID == 0)
        #expect(after.journalMode == "delete")
    }

    @Test func aNewDatabaseCarriesTheKitsMark() throws {
        _ = try SQLiteStore<Note>(.file(path: path))
        let facts = try FileFacts(path)
        #expect(facts.applicationID == SQLiteDatabase.kitApplicationID)
        #expect(facts.userVersion == 2)
        #expect(facts.journalMode == "wal")
        _ = try SQLiteStore<Note>(.file(path: path))  // and opens again
    }

    @Test func aDatabaseAnEarlierKitCreatedStillOpens() async throws {
        let earlier = try SQLiteDatabase(.file(path: path))
        try earlier.execute(
            """
            CREATE TABLE content_loading_metadata (key TEXT PRIMARY KEY NOT NULL, value TEXT);
            \(Note.migrations[0]);
            INSERT INTO notes VALUES (1, 'kept');
            PRAGMA user_version = 2;
            """)
        let store = try SQLiteStore<Note>(.file(path: path))
        #expect(try await store.fetchAll() == [Note(id: 1, title: "kept")])
        #expect(try FileFacts(path).applicationID == 0, "already at the last version: only read")
    }
}
