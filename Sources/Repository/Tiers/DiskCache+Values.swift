import ContentLoading
import Foundation

/// The values of the entries, kept apart from the entries' bookkeeping: an entry's row in
/// `content_loading_cache` (its key, format, version, size, write and read times, validators)
/// and its value's row in `content_loading_cache_values`, written together.
///
/// SQLite writes a row whole when any of its columns changes, and reads through a large value
/// (kept in overflow pages) to reach the columns after it. With the value in the entry's row,
/// writing the time an entry was read, or confirming an unchanged value (a 304), wrote the
/// value again, and reading an entry's validators read it: a 1 MiB value cost a megabyte of
/// writes for each read and each revalidation. Apart, those touch only the bookkeeping.
///
/// A trigger takes a value with its entry (and a list's membership rows with the list's, as
/// before); the one write that changes a key (``move(_:to:)``) moves its value too.
extension DiskCache {
    /// Migration 10: the values moved into their own table, the entries' rows made again
    /// without them.
    static let valuesApartSchema = """
        CREATE TABLE content_loading_cache_values (
            key TEXT PRIMARY KEY NOT NULL,
            value BLOB NOT NULL
        );
        INSERT INTO content_loading_cache_values (key, value) SELECT key, value FROM content_loading_cache;
        DROP TRIGGER content_loading_list_gone;
        CREATE TABLE content_loading_cache_entries (
            key TEXT PRIMARY KEY NOT NULL,
            format INTEGER NOT NULL,
            version INTEGER NOT NULL,
            size INTEGER NOT NULL,
            written_at REAL NOT NULL,
            accessed_at REAL NOT NULL,
            entity_tag TEXT,
            last_modified TEXT,
            max_age REAL
        );
        INSERT INTO content_loading_cache_entries
            (key, format, version, size, written_at, accessed_at, entity_tag, last_modified, max_age)
            SELECT key, format, version, size, written_at, accessed_at, entity_tag, last_modified, max_age
                FROM content_loading_cache;
        DROP TABLE content_loading_cache;
        ALTER TABLE content_loading_cache_entries RENAME TO content_loading_cache;
        CREATE INDEX content_loading_cache_by_access ON content_loading_cache (accessed_at);
        CREATE TRIGGER content_loading_entry_gone AFTER DELETE ON content_loading_cache BEGIN
            DELETE FROM content_loading_cache_values WHERE key = old.key;
            DELETE FROM content_loading_list_members WHERE list_key = old.key;
        END
        """

    /// The SQL for the bytes a stored value takes, in a query over
    /// `content_loading_cache_values`.
    ///
    /// NB: the length of a value stored as a blob, as values are, is read from the row's header;
    /// cast, it would be read whole.
    static let valueBytes =
        "CASE typeof(value) WHEN 'blob' THEN length(value) ELSE length(CAST(value AS BLOB)) END"

    /// The SQL for the bytes an entry's key and value take, in a query over
    /// `content_loading_cache`.
    static let rowBytes = """
        length(CAST(content_loading_cache.key AS BLOB)) + coalesce((
            SELECT \(valueBytes) FROM content_loading_cache_values
                WHERE content_loading_cache_values.key = content_loading_cache.key), 0)
        """

    /// The SQL for the bytes the stored keys and values take, read from every entry's row and
    /// every value's (the entries' size column is not trusted).
    static let measuredBytesSQL = """
        CAST((SELECT total(length(CAST(key AS BLOB))) FROM content_loading_cache)
            + (SELECT total(\(valueBytes)) FROM content_loading_cache_values) AS INTEGER)
        """

    /// The bytes the stored keys and values take, measured (see ``measuredBytesSQL``).
    static func measuredBytes(in database: SQLiteDatabase) throws -> Int {
        let measure = try database.prepare("SELECT \(measuredBytesSQL)", operation: "read the cache in")
        return try measure.step() ? measure.int(at: 0) : 0
    }

    /// Writes the value of the entry for `key`, inside the transaction that writes the entry.
    func writeValue(_ data: Data, for key: String) throws {
        let insert = try database.prepare(
            "INSERT OR REPLACE INTO content_loading_cache_values (key, value) VALUES (?, ?)",
            operation: "write the cache in")
        try insert.bind(key, at: 1)
        try insert.bind(data, at: 2)
        try insert.step()
    }

    /// The version stored with the entry for `key` (its value is not read); `nil` when there
    /// is none, or it does not validate.
    func storedVersion(for key: String) throws -> UInt64? {
        let select = try database.prepare(
            "SELECT \(Self.validVersion) FROM content_loading_cache WHERE key = ?", operation: "read the cache in")
        try select.bind(key, at: 1)
        guard try select.step(), let version = select.optionalInt(at: 0) else { return nil }
        return UInt64(version)
    }
}
