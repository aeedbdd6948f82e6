import ContentLoadingRepository
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct SQLiteStoreTests {
    @Test func observationYieldsTheCurrentListThenEveryCommittedChange() async throws {
        let store = try SQLiteStore<Note>(.inMemory)
        try await store.write(notes(0..<2))
        let observed = await StreamRecorder(try store.observe())
        try await store.write([Note(id: 5, title: "five")])
        try await store.write([Note(id: 5, title: "five")])  // no change: no emission
        try await store.delete(ids: [0])
        let lists = try await observed.values(count: 3)
        #expect(lists[0] == notes(0..<2))
        #expect(lists[1] == notes(0..<2) + [Note(id: 5, title: "five")])
        #expect(lists[2] == [Note(id: 1, title: "note 1"), Note(id: 5, title: "five")])
    }

    @Test func closeReleasesTheFileEndsObserversAndLaterCallsThrowNamingThePath() async throws {
        let path = try temporaryDatabasePath()
        let store = try SQLiteStore<Note>(.file(path: path))
        try await store.write(notes(0..<2))
        let observed = await StreamRecorder(try store.observe())
        await store.close()
        #expect(try await observed.all() == [notes(0..<2)], "the observer's stream finished")
        let error = await #expect(throws: SQLiteError.self) { try await store.fetchAll() }
        #expect(error?.description == "cannot read database \(path): the database was closed (SQLite error 21)")
        await #expect(throws: SQLiteError.self) { try await store.write(notes(5..<6)) }
        await store.close()  // twice: nothing happens
        // The file is released and intact: another store opens it and reads what was written.
        #expect(try await SQLiteStore<Note>(.file(path: path)).fetchAll() == notes(0..<2))
    }

    @Test(arguments: ["", ":memory:"])
    func aFilePathThatNamesNoFileIsRefused(_ path: String) throws {
        // NB: SQLite would open a temporary (or in-memory) database and lose every write.
        let error = try #require(throws: SQLiteError.self) { try DiskCache(.file(path: path)) }
        #expect(error.operation == "open")
        #expect(error.description.contains("it names no file (for a database in memory, use .inMemory)"))
        #expect(throws: SQLiteError.self) { try SQLiteDatabase(.file(path: path)) }
    }

    /// A file's name ends at a NUL: "…/notes\0.sqlite" opened "…/notes", another file, without
    /// a word. It is refused, naming the path with the NUL shown, and nothing is made.
    @Test func aFilePathHoldingANULIsRefusedAndMakesNoFile() throws {
        let path = try temporaryDatabasePath()
        let named = path + "\u{0}.sqlite"
        let error = try #require(throws: SQLiteError.self) { try DiskCache(.file(path: named)) }
        #expect(
            error.description
                == "cannot open database \(path)\\u{0}.sqlite: the path holds a NUL character, where a file's name ends (SQLite error 21)"
        )
        #expect(throws: SQLiteError.self) { try SQLiteDatabase(.file(path: named)) }
        #expect(throws: SQLiteError.self) { try SQLiteStore<Note>(.file(path: named)) }
        #expect(!FileManager.default.fileExists(atPath: path), "no file was made at the name before the NUL")
    }

    @Test func aBatchIsAllOrNothing() async throws {
        let store = try SQLiteStore<Note>(.inMemory)
        try await store.replaceAll(with: notes(0..<3), syncedAt: nil)
        var batch = notes(10..<20)
        batch[5].title = ""  // violates the CHECK constraint halfway through
        await #expect(throws: SQLiteError.self) { try await store.replaceAll(with: batch, syncedAt: Date()) }
        #expect(try await store.fetchAll() == notes(0..<3), "the failed batch changed nothing")
        #expect(try await store.lastSyncDate() == nil)
    }

    @Test func fileDatabaseKeepsDataAndSyncDateAcrossReopening() async throws {
        let path = try temporaryDatabasePath()
        let synced = Date(timeIntervalSince1970: 1_234_567)
        do {
            let store = try SQLiteStore<Note>(.file(path: path))
            try await store.replaceAll(with: notes(0..<3), syncedAt: synced)
        }
        let reopened = try SQLiteStore<Note>(.file(path: path))
        #expect(try await reopened.fetchAll() == notes(0..<3))
        #expect(try await reopened.lastSyncDate() == synced)
    }

    @Test func fileDatabaseUsesWAL() throws {
        let path = try temporaryDatabasePath()
        _ = try SQLiteStore<Note>(.file(path: path))
        let database = try SQLiteDatabase(.file(path: path))
        let statement = try database.prepare("PRAGMA journal_mode")
        #expect(try statement.step())
        #expect(statement.text(at: 0) == "wal")
    }

    @Test(arguments: [
        "", "short", "Zoë's café ☕️", String(repeating: "long text, past a small string ", count: 20), "nul\0inside",
    ])
    func textRoundTripsExactly(_ text: String) throws {
        let database = try SQLiteDatabase(.inMemory)
        try database.execute("CREATE TABLE t (value TEXT)")
        let insert = try database.prepare("INSERT INTO t (value) VALUES (?)")
        try insert.bind(text, at: 1)
        try insert.step()
        let select = try database.prepare("SELECT value, value IS NULL, length(CAST(value AS BLOB)) FROM t")
        #expect(try select.step())
        #expect(select.text(at: 0) == text)
        #expect(select.int(at: 1) == 0, "an empty text is stored as text, not NULL")
        #expect(select.int(at: 2) == text.utf8.count)
    }

    @Test func schemaIsMigratedByVersion() throws {
        let database = try SQLiteDatabase(.inMemory)
        try database.migrate(["CREATE TABLE a (x INTEGER)"])
        #expect(try database.schemaVersion() == 1)
        try database.migrate(["CREATE TABLE a (x INTEGER)", "ALTER TABLE a ADD COLUMN y TEXT"])
        #expect(try database.schemaVersion() == 2)
        try database.execute("INSERT INTO a (x, y) VALUES (1, 'one')")
        #expect(throws: SQLiteError.self) { try database.migrate(["CREATE TABLE a (x INTEGER)"]) }
    }

    @Test func failedMigrationIsRolledBackAndNamesTheVersion() throws {
        let database = try SQLiteDatabase(.inMemory)
        do {
            try database.migrate(["CREATE TABLE a (x INTEGER)", "THIS IS NOT SQL"])
            Issue.record("a broken migration succeeded")
        } catch let error as SQLiteError {
            #expect(error.operation == "migrate to version 2")
        }
        #expect(try database.schemaVersion() == 0, "a failed migration changes nothing")
        let tables = try database.prepare("SELECT count(*) FROM sqlite_master")
        #expect(try tables.step())
        #expect(tables.int(at: 0) == 0, "version 1's table was rolled back with version 2")
    }

    @Test func corruptFileIsAClearErrorNamingThePathAndIsLeftAlone() throws {
        let path = try temporaryDatabasePath()
        let garbage = Data(repeating: 0x5A, count: 8_192)
        try garbage.write(to: URL(fileURLWithPath: path))
        do {
            _ = try SQLiteStore<Note>(.file(path: path))
            Issue.record("a corrupt file opened")
        } catch let error as SQLiteError {
            #expect(error.path == path)
            #expect(error.description.contains(path))
            #expect(error.description.contains("not a database"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage, "the file was not overwritten")
    }

    @Test func unreadablePathIsAClearErrorNamingThePath() throws {
        let path = "/nonexistent-\(UUID().uuidString)/notes.sqlite"
        do {
            _ = try SQLiteStore<Note>(.file(path: path))
            Issue.record("a database opened in a missing directory")
        } catch let error as SQLiteError {
            #expect(error.description.contains(path))
        }
    }
}

@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct InMemoryStoreTests {
    @Test func behavesLikeTheSQLiteStore() async throws {
        let store = InMemoryStore<Note>(sortedBy: { $0.id < $1.id })
        let observed = await StreamRecorder(store.observe())
        try await store.write(notes(3..<5))
        try await store.write(notes(3..<5))
        try await store.replaceAll(with: notes(0..<2), syncedAt: Date(timeIntervalSince1970: 5))
        await store.delete(ids: [0])
        #expect(try await observed.values(count: 4) == [[], notes(3..<5), notes(0..<2), notes(1..<2)])
        #expect(await store.lastSyncDate() == Date(timeIntervalSince1970: 5))
    }

    @Test func elementsTheOrderPutsSideBySideComeInTheOrderTheyWereWritten() async throws {
        // NB: they came in the order of the process's hash seed, which a write could change.
        func same(_ ids: [Int]) -> [Note] { ids.map { Note(id: $0, title: "same") } }
        let store = try InMemoryStore<Note>(sortedBy: { $0.title < $1.title }, elements: same(Array(0..<20)))
        var ids = await store.fetchAll().map(\.id)
        #expect(ids == Array(0..<20))
        try await store.write(same([5] + Array(20..<40)))
        ids = await store.fetchAll().map(\.id)
        let expected: [Int] = Array(0..<5) + Array(6..<20) + [5] + Array(20..<40)
        #expect(ids == expected, "rewritten: last")
        try await store.write([Note(id: 7, title: "first")])
        ids = await store.fetchAll().map(\.id)
        #expect(ids.first == 7, "the order comes first")
        try await store.replaceAll(with: same(Array((0..<30).reversed())), syncedAt: nil)
        ids = await store.fetchAll().map(\.id)
        #expect(ids == Array((0..<30).reversed()))
    }
}
