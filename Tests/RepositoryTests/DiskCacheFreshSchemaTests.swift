import Foundation
import Testing

@testable import ContentLoadingRepository

/// A new disk tier runs one script of what its migrations make of an empty database
/// (`SQLiteDatabase.freshSchema(after:)`) instead of each migration: both ways make the same
/// database.
struct DiskCacheFreshSchemaTests {
    /// The file's objects (type, name, table, SQL), versions and rows, as text.
    private func contents(of path: String) throws -> [String] {
        var contents = try sqlRows(
            "SELECT type || ' ' || name || ' ' || tbl_name || ': ' || ifnull(sql, '-') FROM sqlite_master ORDER BY name",
            in: path)
        contents += try sqlRows("SELECT 'user_version ' || user_version FROM pragma_user_version", in: path)
        contents += try sqlRows("SELECT 'application_id ' || application_id FROM pragma_application_id", in: path)
        contents += try sqlRows("SELECT 'journal_mode ' || journal_mode FROM pragma_journal_mode", in: path)
        let tables = try sqlRows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", in: path)
        for table in tables {
            let columns = try sqlRows("SELECT name FROM pragma_table_info('\(table)') ORDER BY cid", in: path)
            let row = columns.map { "quote(\($0))" }.joined(separator: " || ', ' || ")
            contents += try sqlRows("SELECT '\(table): ' || \(row) FROM \(table)", in: path)
        }
        return contents
    }

    @Test func aNewFileIsTheDatabaseTheMigrationsMakeOneByOne() throws {
        let script = try #require(DiskCache.freshSchema, "the script of the disk tier's migrations was made")
        #expect(script.contains("content_loading_cache_counter"))
        let created = try temporaryCachePath()
        _ = try DiskCache(.file(path: created))
        let migrated = try temporaryCachePath()
        // NB: the public preparation, which runs each migration.
        try SQLiteDatabase(.file(path: migrated)).prepareForStore(migrations: DiskCache.migrations)
        let expected = try contents(of: migrated)
        #expect(expected.contains("user_version \(DiskCache.migrations.count)"))
        #expect(expected.contains("content_loading_cache_counter: 1, 0, NULL, NULL, 0"))
        #expect(try contents(of: created) == expected)
    }

    @Test func aFileAtAnEarlierVersionRunsTheMigrationsItLacks() throws {
        let path = try temporaryCachePath()
        let earlier = try SQLiteDatabase(.file(path: path))
        try earlier.prepareForStore(migrations: Array(DiskCache.migrations.prefix(4)))
        earlier.close()
        _ = try DiskCache(.file(path: path))
        let migrated = try temporaryCachePath()
        try SQLiteDatabase(.file(path: migrated)).prepareForStore(migrations: DiskCache.migrations)
        #expect(try contents(of: path) == contents(of: migrated))
    }
}
