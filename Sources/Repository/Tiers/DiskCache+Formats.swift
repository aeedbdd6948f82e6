import Foundation

/// The formats of the entries. Each entry is stored with the ``DiskCache/formatVersion`` of the
/// code that wrote it, and an open discards the entries of a format other than its own.
///
/// To know whether there are any without reading every entry's row (at each launch, on the
/// thread that opens the cache: 3–4 ms of the open of a file of 50,000 entries here, against
/// 0.3–0.4 ms without it), the counter row keeps a range that every entry's format lies in
/// (`NULL` to `NULL`: there is no entry):
/// - every write of a connection widens it by the connection's format, in the statement that
///   advances the write version (a row each write changes anyway);
/// - an open that discards entries of other formats narrows it to its own, in the same
///   transaction.
///
/// An open whose format is the whole range (an app launched again by the build that last wrote
/// its cache) reads no entry; any other reads the entries' formats, and discards when one
/// differs. When none does (those of another format were evicted or removed since), the
/// connection's first write narrows the range to its format, unless a write came between the
/// open's read and it (the version tells): until then, each open reads the formats.
extension DiskCache {
    /// Migration 12: the range of the entries' formats, from the entries stored.
    static let formatRangeSchema = """
        ALTER TABLE content_loading_cache_counter ADD COLUMN lowest_format INTEGER;
        ALTER TABLE content_loading_cache_counter ADD COLUMN highest_format INTEGER;
        UPDATE content_loading_cache_counter SET
            lowest_format = (SELECT min(format) FROM content_loading_cache),
            highest_format = (SELECT max(format) FROM content_loading_cache)
        """

    /// The SQL, in the `UPDATE` that advances the counter row, that widens the range by the
    /// format bound at `?1`; or narrows it to that format when the version before the update is
    /// the one bound at `?2` (``formatsReadAt``; `NULL` never is).
    static let advancedFormats = """
        lowest_format = CASE WHEN last_version = ?2 THEN ?1 ELSE min(coalesce(lowest_format, ?1), ?1) END,
        highest_format = CASE WHEN last_version = ?2 THEN ?1 ELSE max(coalesce(highest_format, ?1), ?1) END
        """

    /// The SQL for the range of the stored entries' formats, widened by the format bound at
    /// `?1`, as the two last values of a counter row's `INSERT`.
    static let measuredFormats = """
        min(coalesce((SELECT min(format) FROM content_loading_cache), ?1), ?1),
        max(coalesce((SELECT max(format) FROM content_loading_cache), ?1), ?1)
        """

    /// The file's write version (its counter, 0 when there is none), and whether every entry
    /// is in `format` as far as the counter row knows (`false`: they must be read to find out).
    static func versionAndFormats(in database: SQLiteDatabase, format: Int) throws -> (UInt64, onlyFormat: Bool) {
        let select = try database.prepare(
            """
            SELECT last_version, coalesce(
                    lowest_format = ?1 AND highest_format = ?1, lowest_format IS NULL AND highest_format IS NULL)
                FROM content_loading_cache_counter WHERE id = 1
            """, operation: "read the cache in")
        try select.bind(format, at: 1)
        guard try select.step() else { return (0, false) }
        return (UInt64(max(0, select.int(at: 0))), select.int(at: 1) != 0)
    }

    /// Whether the file holds entries written in a format other than `format` (a read of every
    /// entry's row).
    static func holdsEntries(in database: SQLiteDatabase, otherThanFormat format: Int) throws -> Bool {
        let select = try database.prepare(
            "SELECT EXISTS (SELECT 1 FROM content_loading_cache WHERE format <> ?)", operation: "read the cache in")
        try select.bind(format, at: 1)
        return try select.step() && select.int(at: 0) != 0
    }

    /// Deletes the entries of a format other than `format` and narrows the range to it, in one
    /// transaction; the byte total stored goes (the next write measures it, see
    /// `DiskCache+ByteTotal.swift`).
    static func discardEntries(in database: SQLiteDatabase, otherThanFormat format: Int) throws {
        let operation = "discard old cache entries in"
        try database.transaction(operation: operation) {
            let discard = try database.prepare(
                "DELETE FROM content_loading_cache WHERE format <> ?", operation: operation)
            try discard.bind(format, at: 1)
            try discard.step()
            let narrow = try database.prepare(
                """
                UPDATE content_loading_cache_counter SET lowest_format = ?1, highest_format = ?1, stored_bytes = NULL
                    WHERE id = 1
                """,
                operation: operation)
            try narrow.bind(format, at: 1)
            try narrow.step()
        }
    }
}
