import ContentLoading
import Foundation

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// The disk tier: encoded values in a table of the kit's SQLite layer, bounded by total bytes,
/// evicting the least recently read entries when a write goes over the limit.
///
/// Every write is a transaction, so a crash leaves the previous value. Each entry carries its
/// write time (its age survives a restart) and the format version of the code that wrote it:
/// entries of another format are discarded. Work runs on the actor, off the main actor.
///
/// ```swift
/// let disk = try DiskCache(.file(path: "cache.sqlite"), byteLimit: 64 << 20)
/// ```
public actor DiskCache {
    /// One stored entry.
    struct Entry: Sendable {
        let data: Data
        let writtenAt: Date
        let version: UInt64
        let validators: Validators
    }

    /// The database file's path.
    public nonisolated let path: String
    /// The most bytes of values kept.
    public let byteLimit: Int
    /// The format the entries are written in; entries of another format are discarded.
    public let formatVersion: Int
    private let database: SQLiteDatabase
    /// The total size of the values, kept as rows are written and removed.
    private var totalBytes: Int
    /// When each entry read since the last write was read, by key.
    private var pendingReads: [String: Double] = [:]
    /// Makes a write fail (for tests of a full disk): called before each write.
    private var writeFault: (@Sendable (String) throws -> Void)?

    private static let migrations = [
        """
        CREATE TABLE content_loading_cache (
            key TEXT PRIMARY KEY NOT NULL,
            format INTEGER NOT NULL,
            version INTEGER NOT NULL,
            value BLOB NOT NULL,
            size INTEGER NOT NULL,
            written_at REAL NOT NULL,
            accessed_at REAL NOT NULL
        );
        CREATE INDEX content_loading_cache_by_access ON content_loading_cache (accessed_at)
        """,
        // 2: the validators a fetch got with each value (HTTP ETag and Last-Modified).
        """
        ALTER TABLE content_loading_cache ADD COLUMN entity_tag TEXT;
        ALTER TABLE content_loading_cache ADD COLUMN last_modified TEXT
        """,
    ]

    /// Opens (or creates) the disk tier at `location`.
    ///
    /// - Parameters:
    ///   - location: A file (one of its own, or a database the kit created) or memory.
    ///   - byteLimit: The most bytes of values kept. Defaults to 64 MiB.
    ///   - formatVersion: Bump it when the encoded form of the values changes: entries written
    ///     with another version are discarded. Defaults to 1.
    /// - Throws: ``SQLiteError`` naming the file when it cannot be opened or is not the kit's.
    public init(_ location: SQLiteDatabase.Location, byteLimit: Int = 64 << 20, formatVersion: Int = 1) throws {
        database = try SQLiteDatabase(location)
        try database.prepareForStore(migrations: Self.migrations)
        path = database.path
        self.byteLimit = byteLimit
        self.formatVersion = formatVersion
        let stale = try database.prepare(
            "SELECT count(*) FROM content_loading_cache WHERE format <> ?", operation: "read the cache in")
        try stale.bind(formatVersion, at: 1)
        if try stale.step(), stale.int(at: 0) > 0 {
            let discard = try database.prepare(
                "DELETE FROM content_loading_cache WHERE format <> ?", operation: "discard old cache entries in")
            try discard.bind(formatVersion, at: 1)
            try discard.step()
        }
        let total = try database.prepare(
            "SELECT total(size) FROM content_loading_cache", operation: "read the cache in")
        totalBytes = try total.step() ? total.int(at: 0) : 0
    }

    /// The entry for `key`, marked as read at `now` (written with the next write); `nil` when
    /// there is none.
    func entry(for key: String, now: Date) throws -> Entry? {
        let select = try database.prepare(
            "SELECT value, written_at, version, entity_tag, last_modified FROM content_loading_cache WHERE key = ?",
            operation: "read the cache in")
        try select.bind(key, at: 1)
        guard try select.step(), let data = select.data(at: 0), let written = select.optionalDouble(at: 1) else {
            return nil
        }
        // NB: the read time is kept here and written with the next write (the only time
        // recency matters: eviction), so a read is one SELECT and never a write transaction.
        pendingReads[key] = now.timeIntervalSince1970
        return Entry(
            data: data, writtenAt: Date(timeIntervalSince1970: written), version: UInt64(max(0, select.int(at: 2))),
            validators: Validators(entityTag: select.text(at: 3), lastModified: select.text(at: 4)))
    }

    /// The validators stored with the entry for `key` and its write time (its value is not
    /// read); `nil` when there is no entry.
    func validators(for key: String) throws -> (validators: Validators, writtenAt: Date)? {
        let select = try database.prepare(
            "SELECT entity_tag, last_modified, written_at FROM content_loading_cache WHERE key = ?",
            operation: "read the cache in")
        try select.bind(key, at: 1)
        guard try select.step() else { return nil }
        let validators = Validators(entityTag: select.text(at: 0), lastModified: select.text(at: 1))
        return (validators, Date(timeIntervalSince1970: select.optionalDouble(at: 2) ?? 0))
    }

    /// Writes the read times kept since the last write; inside a write's transaction.
    private func recordReads() throws {
        guard !pendingReads.isEmpty else { return }
        let touch = try database.prepare(
            "UPDATE content_loading_cache SET accessed_at = max(accessed_at, ?) WHERE key = ?",
            operation: "write the cache in")
        for (key, readAt) in pendingReads {
            try touch.bind(readAt, at: 1)
            try touch.bind(key, at: 2)
            try touch.step()
            try touch.reset()
        }
        pendingReads = [:]
    }

    /// Writes `data` for `key` unless a later version is stored, then evicts the least recently
    /// read entries while the total is over ``byteLimit``. One transaction.
    func write(_ data: Data, for key: String, version: UInt64, writtenAt: Date, validators: Validators) throws {
        try writeFault?(key)
        try keepingTotalOnFailure {
            try database.transaction(operation: "write the cache in") {
                let previous = try database.prepare(
                    "SELECT version, size FROM content_loading_cache WHERE key = ?", operation: "write the cache in")
                try previous.bind(key, at: 1)
                var replaced = 0
                if try previous.step() {
                    guard UInt64(max(0, previous.int(at: 0))) <= version else { return }
                    replaced = previous.int(at: 1)
                }
                let insert = try database.prepare(
                    """
                    INSERT OR REPLACE INTO content_loading_cache
                        (key, format, version, value, size, written_at, accessed_at, entity_tag, last_modified)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, operation: "write the cache in")
                try insert.bind(key, at: 1)
                try insert.bind(formatVersion, at: 2)
                try insert.bind(Int(clamping: version), at: 3)
                try insert.bind(data, at: 4)
                try insert.bind(data.count, at: 5)
                try insert.bind(writtenAt.timeIntervalSince1970, at: 6)
                try insert.bind(writtenAt.timeIntervalSince1970, at: 7)
                try insert.bind(validators.entityTag, at: 8)
                try insert.bind(validators.lastModified, at: 9)
                try insert.step()
                totalBytes += data.count - replaced
                pendingReads[key] = nil
                try recordReads()
                if totalBytes > byteLimit { try evict(keeping: key) }
            }
        }
    }

    /// Sets the write time, version and validators of the entry for `key` (a fetch found its
    /// value unchanged), unless a later version is stored.
    func confirm(_ key: String, version: UInt64, writtenAt: Date, validators: Validators) throws {
        try writeFault?(key)
        let update = try database.prepare(
            """
            UPDATE content_loading_cache SET written_at = ?, version = ?, entity_tag = ?, last_modified = ?
                WHERE key = ? AND version <= ?
            """, operation: "write the cache in")
        try update.bind(writtenAt.timeIntervalSince1970, at: 1)
        try update.bind(Int(clamping: version), at: 2)
        try update.bind(validators.entityTag, at: 3)
        try update.bind(validators.lastModified, at: 4)
        try update.bind(key, at: 5)
        try update.bind(Int(clamping: version), at: 6)
        try update.step()
    }

    /// Runs `body`; when it throws (its transaction rolled back), the running total is restored.
    private func keepingTotalOnFailure(_ body: () throws -> Void) throws {
        let before = totalBytes
        do { try body() } catch {
            totalBytes = before
            throw error
        }
    }

    /// Removes the entry for `key`.
    func remove(_ key: String) throws {
        pendingReads[key] = nil
        try keepingTotalOnFailure {
            try database.transaction(operation: "remove from the cache in") {
                let size = try database.prepare(
                    "SELECT size FROM content_loading_cache WHERE key = ?", operation: "remove from the cache in")
                try size.bind(key, at: 1)
                let removed = try size.step() ? size.int(at: 0) : 0
                let delete = try database.prepare(
                    "DELETE FROM content_loading_cache WHERE key = ?", operation: "remove from the cache in")
                try delete.bind(key, at: 1)
                try delete.step()
                totalBytes -= removed
            }
        }
    }

    /// Removes every entry.
    func removeAll() throws {
        try database.transaction(operation: "clear the cache in") {
            try database.execute("DELETE FROM content_loading_cache", operation: "clear the cache in")
            totalBytes = 0
        }
    }

    /// The total size of the stored values.
    public var storedBytes: Int { totalBytes }

    /// The stored keys, least recently read first.
    public func keysByAccess() throws -> [String] {
        if !pendingReads.isEmpty { try database.transaction(operation: "write the cache in") { try recordReads() } }
        let select = try database.prepare(
            "SELECT key FROM content_loading_cache ORDER BY accessed_at, key", operation: "read the cache in")
        var keys: [String] = []
        while try select.step() { keys.append(select.text(at: 0) ?? "") }
        return keys
    }

    /// Makes writes fail with what `fault` throws; `nil` restores them (for tests of a full disk).
    package func setWriteFault(_ fault: (@Sendable (String) throws -> Void)?) { writeFault = fault }

    /// Deletes the least recently read entries, but `key`, until the total fits the limit.
    private func evict(keeping key: String) throws {
        let oldest = try database.prepare(
            "SELECT key, size FROM content_loading_cache WHERE key <> ? ORDER BY accessed_at, key",
            operation: "evict from the cache in")
        try oldest.bind(key, at: 1)
        var victims: [String] = []
        var freed = 0
        while totalBytes - freed > byteLimit, try oldest.step() {
            victims.append(oldest.text(at: 0) ?? "")
            freed += oldest.int(at: 1)
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
}
