import ContentLoadingRepository
import Foundation
import KitTestSupport
import Testing

/// A database file deleted, moved or replaced while the kit has it open: SQLite went on
/// writing to it through the open connection, so saves returned and were gone at the next
/// launch. Each write is refused now, with an error naming the file; reads go on.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct MovedDatabaseFileTests {
    /// How the file goes away under the open connection.
    enum Removal: String, CaseIterable, CustomTestStringConvertible {
        case deleted, moved, replaced
        var testDescription: String { rawValue }

        func apply(to path: String) throws {
            let files = FileManager.default
            switch self {
            case .deleted:
                try files.removeItem(atPath: path)
                // NB: SQLite may have removed or not made these; the file itself must be there.
                for suffix in ["-wal", "-shm"] { try? files.removeItem(atPath: path + suffix) }
            case .moved:
                try files.moveItem(atPath: path, toPath: path + ".moved")
            case .replaced:
                try files.removeItem(atPath: path)
                try Data("another file".utf8).write(to: URL(fileURLWithPath: path))
            }
        }
    }

    @Test(arguments: Removal.allCases)
    func aSaveToACacheFileThatWentAwayFailsNamingItAndItsValuesStillRead(removal: Removal) async throws {
        let path = try temporaryCachePath()
        let repository = KeyedRepository<String, String>(disk: try DiskCache(.file(path: path))) { "fetched \($0)" }
        try await repository.save("one", for: "a")
        try removal.apply(to: path)

        let error = try await #require(throws: (any Error).self) { try await repository.save("two", for: "b") }
        #expect(
            "\(error)".hasPrefix(
                "cannot write cache entry b in \(path): the file was deleted, moved or replaced since it was opened: "
                    + "nothing was written"), "\(error)")
        #expect(try await repository.value(for: "a", policy: .returnCacheDontLoad)?.value == "one")
        #expect(try await repository.value(for: "b", policy: .returnCacheDontLoad)?.value == nil, "not shown as saved")
    }

    @Test(arguments: Removal.allCases)
    func aWriteToAStoreFileThatWentAwayFailsNamingIt(removal: Removal) async throws {
        let path = try temporaryDatabasePath()
        let store = try SQLiteStore<Note>(.file(path: path))
        try await store.write(notes(0..<2))
        try removal.apply(to: path)

        let error = await #expect(throws: SQLiteError.self) { try await store.write(notes(2..<3)) }
        #expect(error?.path == path)
        #expect(error?.code == 1032, "SQLITE_READONLY_DBMOVED")
        #expect(error?.description.contains("deleted, moved or replaced since it was opened") == true)
        #expect(try await store.fetchAll() == notes(0..<2), "reads go on")
    }

    @Test func aFileLeftInPlaceIsWrittenAsBefore() async throws {
        let path = try temporaryDatabasePath()
        let store = try SQLiteStore<Note>(.file(path: path))
        try await store.write(notes(0..<2))
        try await store.write(notes(2..<3))
        #expect(try await SQLiteStore<Note>(.file(path: path)).fetchAll() == notes(0..<3))
    }
}
