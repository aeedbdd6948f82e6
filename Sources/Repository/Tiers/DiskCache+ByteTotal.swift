import Foundation

/// The byte total of the stored keys and values, and the eviction that holds it to the byte
/// limit.
///
/// Each connection keeps the total in memory (``totalBytes``) and the file keeps it in the
/// counter row (`stored_bytes`), which every write that changes it sets before it commits, in
/// a row each write changes anyway. A connection takes the file's total when another connection
/// has written since it last knew it (a read of one row), and measures it from every entry's
/// row and every value's (``measuredBytes(in:)``) only when the file's does not validate (not
/// an integer, below 0, or more than the file's pages) or is not there: after an open
/// discarded entries of another format, after the counter row was made again. An eviction that
/// would take every other entry measures first (see `evict(keeping:)`). Measuring a full
/// cache of 50,000 values of 1 KB took 46 ms, which the first write after each launch paid, and
/// each write after another connection's (an app and its extension), before what it stored
/// could be shown.
extension DiskCache {
    /// Migration 13: the byte total, measured.
    static let byteTotalSchema = """
        ALTER TABLE content_loading_cache_counter ADD COLUMN stored_bytes INTEGER;
        UPDATE content_loading_cache_counter SET stored_bytes = \(measuredBytesSQL)
        """

    /// Brings ``totalBytes`` up to the file when another connection to it (another process's,
    /// another `DiskCache`'s) has written since it was last known, or a transaction of this one
    /// was rolled back, or it was never known (see ``fileMark()``): the file's total, or the
    /// measured one. Inside a write's transaction, no other connection writes until it ends.
    func syncTotalBytes() throws {
        let mark = try fileMark()
        guard mark != totalBytesRead else { return }
        totalBytes = try Self.storedTotalBytes(in: database) ?? Self.measuredBytes(in: database)
        totalBytesRead = mark
    }

    /// Measures ``totalBytes`` (after a write whose change to it is not known row by row).
    func measureTotalBytes() throws {
        totalBytes = try Self.measuredBytes(in: database)
        totalBytesRead = try fileMark()
    }

    /// Stores ``totalBytes`` in the file, inside a write's transaction that changed it; `NULL`
    /// (measured by the next connection that needs it) when it is not the file's (not brought up
    /// to it since another connection wrote).
    func storeTotalBytes() throws {
        let total = try totalBytesRead == fileMark() ? totalBytes : nil
        let store = try database.prepare(
            "UPDATE content_loading_cache_counter SET stored_bytes = ? WHERE id = 1", operation: "write the cache in")
        try store.bind(total, at: 1)
        try store.step()
    }

    /// The byte total the file keeps; `nil` when it is not there or does not validate: not an
    /// integer, below 0, or more than the file's pages hold (the keys and values are in them).
    static func storedTotalBytes(in database: SQLiteDatabase) throws -> Int? {
        let select = try database.prepare(
            """
            SELECT CASE WHEN typeof(stored_bytes) = 'integer' AND stored_bytes >= 0
                    AND stored_bytes <= (SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size())
                THEN stored_bytes END
                FROM content_loading_cache_counter WHERE id = 1
            """, operation: "read the cache in")
        return try select.step() ? select.optionalInt(at: 0) : nil
    }

    /// Deletes the least recently read entries, but `key`, until the total fits the limit.
    ///
    /// NB: a total that would not fit even with every other entry gone was counted wrong (a
    /// total the file kept that did not hold, another process's writes): it is measured before
    /// anything goes, and only what the measured total needs goes.
    func evict(keeping key: String) throws {
        var (victims, freed) = try leastRecentlyRead(keeping: key)
        if totalBytes - freed > byteLimit {
            try measureTotalBytes()
            (victims, freed) = try leastRecentlyRead(keeping: key)
        }
        let delete = try database.prepare(
            "DELETE FROM content_loading_cache WHERE key = ?", operation: "evict from the cache in")
        for victim in victims {
            try delete.bind(victim, at: 1)
            try delete.step()
            try delete.reset()
        }
        totalBytes -= freed
    }

    /// The least recently read entries, but `key`, whose bytes bring ``totalBytes`` under the
    /// limit (every other entry when they do not), and the bytes they take.
    private func leastRecentlyRead(keeping key: String) throws -> (keys: [String], bytes: Int) {
        let oldest = try database.prepare(
            "SELECT key, \(Self.rowBytes) FROM content_loading_cache WHERE key <> ? ORDER BY accessed_at, key",
            operation: "evict from the cache in")
        try oldest.bind(key, at: 1)
        var victims: [String] = []
        var freed = 0
        while totalBytes - freed > byteLimit, try oldest.step() {
            victims.append(oldest.text(at: 0) ?? "")
            freed += oldest.int(at: 1)
        }
        return (victims, freed)
    }
}
