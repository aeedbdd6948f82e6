import ContentLoading
import Foundation

extension DiskCache {
    /// Writes `data` for `key` at the file's next write version, then evicts the least recently
    /// read entries while the total is over ``byteLimit``. One transaction. A fetch's write
    /// gives the file's version when it started (`started`): an entry written after it (a
    /// save by another repository or process on the file) is kept instead, and returned.
    ///
    /// - Returns: The version of the entry stored, and the entry kept (`nil`: `data` was
    ///   written).
    /// - Throws: ``OverLimit`` when the key and value alone take more than ``byteLimit`` bytes
    ///   (nothing is written, nothing evicted); ``SQLiteError`` when the write fails (nothing
    ///   changes).
    func write(
        _ data: Data, for key: String, writtenAt: Date, validators: Validators,
        keepingWritesAfter started: UInt64? = nil
    ) async throws -> (version: UInt64, kept: Entry?) {
        // NB: a suspension before anything changes (and one while another connection holds the
        // file's lock, see `writeTransaction`): a read may run meanwhile.
        try await writeFault?(key)
        let size = key.utf8.count + data.count
        guard size <= byteLimit else { throw OverLimit(bytes: size, limit: byteLimit) }
        return try await writeTransaction(operation: "write the cache in") {
            // NB: a row that does not validate is no write to keep: it is written over. The value
            // is read only when it is kept.
            if let started, let version = (try? storedVersion(for: key)) ?? nil, version > started,
                let stored = try? entry(for: key, now: writtenAt)
            {
                return (stored.version, stored)
            }
            let version = try advanceVersion()
            try insertRow(
                data, for: key, size: size, version: version, writtenAt: writtenAt, validators: validators)
            return (version, nil)
        }
    }

    /// Stores `data` for `key` at `version`, inside a write's transaction, then evicts the least
    /// recently read entries while the total is over ``byteLimit``; `size` is what the key and
    /// value take.
    func insertRow(_ data: Data, for key: String, size: Int, version: UInt64, writtenAt: Date, validators: Validators)
        throws
    {
        try syncTotalBytes()
        let replaced = try storedBytes(of: key)
        let insert = try database.prepare(
            """
            INSERT OR REPLACE INTO content_loading_cache
                (key, format, version, size, written_at, accessed_at, entity_tag, last_modified, max_age)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, operation: "write the cache in")
        try insert.bind(key, at: 1)
        try insert.bind(formatVersion, at: 2)
        try insert.bind(Int(version), at: 3)
        try insert.bind(size, at: 4)
        let stored = try Self.storedTime(writtenAt)
        try insert.bind(stored, at: 5)
        try insert.bind(stored, at: 6)
        try Self.bind(validators, to: insert, at: 7)
        try insert.step()
        // NB: after the entry's row: a replaced row's triggers (when recursive) take its value.
        try writeValue(data, for: key)
        totalBytes += size - replaced
        pendingReads[key] = nil
        try recordReads()
        if totalBytes > byteLimit { try evict(keeping: key) }
    }

    /// Sets the write time and validators of the entry for `key` at the file's next write
    /// version (a fetch found its value unchanged), when the entry is still the one the fetch
    /// compared (see ``Confirmation/matchesStored(from:)``).
    ///
    /// - Returns: The new version; `nil` when the entry is gone or was written again since
    ///   (nothing changes).
    func confirm(_ key: String, _ confirmation: Confirmation) async throws -> UInt64? {
        // NB: a suspension before anything changes (and one while another connection holds the
        // file's lock, see `writeTransaction`): a read may run meanwhile.
        try await writeFault?(key)
        return try await writeTransaction(operation: "write the cache in") {
            let version = try advanceVersion()
            let update = try database.prepare(
                """
                UPDATE content_loading_cache
                    SET written_at = ?1, version = ?2, entity_tag = ?3, last_modified = ?4, max_age = ?5
                    WHERE key = ?6 AND \(Confirmation.matchesStored(from: 7))
                """, operation: "write the cache in")
            try update.bind(Self.storedTime(confirmation.writtenAt), at: 1)
            try update.bind(Int(version), at: 2)
            try Self.bind(confirmation.validators, to: update, at: 3)
            try update.bind(key, at: 6)
            try confirmation.bindMatch(to: update, at: 7)
            try update.step()
            return try changedRows() > 0 ? version : nil
        }
    }

    /// Removes the entry for `key`, at the file's next write version.
    ///
    /// - Returns: The version of the removal.
    @discardableResult
    func remove(_ key: String) async throws -> UInt64 {
        try await writeTransaction(operation: "remove from the cache in") {
            let version = try advanceVersion()
            try deleteEntry(key)
            return version
        }
    }

    /// Deletes the entry for `key` (its value and membership rows go with it, by trigger) and
    /// takes its bytes off the total; inside a write's transaction.
    func deleteEntry(_ key: String) throws {
        try syncTotalBytes()
        pendingReads[key] = nil
        let removed = try storedBytes(of: key)
        let delete = try database.prepare(
            "DELETE FROM content_loading_cache WHERE key = ?", operation: "remove from the cache in")
        try delete.bind(key, at: 1)
        try delete.step()
        totalBytes -= removed
    }

    /// Removes every entry, at the file's next write version.
    ///
    /// - Returns: The version of the removal.
    @discardableResult
    func removeAll() async throws -> UInt64 {
        try await writeTransaction(operation: "clear the cache in") {
            let version = try advanceVersion()
            try database.execute("DELETE FROM content_loading_cache", operation: "clear the cache in")
            try database.execute("DELETE FROM content_loading_list_pages", operation: "clear the cache in")
            try database.execute("DELETE FROM content_loading_elements", operation: "clear the cache in")
            (totalBytes, totalBytesRead) = (0, try fileMark())
            pendingReads = [:]
            return version
        }
    }

    /// Advances the file's write-version counter, inside a write's transaction: the version of
    /// that write. It widens the range of the entries' formats by ``formatVersion`` too, or
    /// narrows it as the open found (see `DiskCache+Formats.swift`). A counter row that is
    /// missing or does not validate starts again above every valid version stored, with the
    /// range of the formats stored.
    func advanceVersion() throws -> UInt64 {
        let advance = try database.prepare(
            "UPDATE content_loading_cache_counter SET last_version = last_version + 1, \(Self.advancedFormats) WHERE id = 1",
            operation: "write the cache in")
        try advance.bind(formatVersion, at: 1)
        try advance.bind(formatsReadAt.map { Int($0) }, at: 2)
        try advance.step()
        formatsReadAt = nil
        var version = try Self.counter(in: database, operation: "write the cache in")
        if version == nil {
            let reseed = try database.prepare(
                """
                INSERT OR REPLACE INTO content_loading_cache_counter (id, last_version, lowest_format, highest_format)
                    VALUES (1, (\(Self.validVersionsMaximum)) + 1, \(Self.measuredFormats))
                """, operation: "write the cache in")
            try reseed.bind(formatVersion, at: 1)
            try reseed.step()
            let reseeded = try database.prepare(
                "SELECT last_version FROM content_loading_cache_counter WHERE id = 1", operation: "write the cache in")
            version = try reseeded.step() ? reseeded.int(at: 0) : nil
        }
        let next = UInt64(max(1, version ?? 1))
        seenVersion.withLock { $0 = max($0, next) }
        writtenVersion.withLock { $0 = max($0, next) }
        return next
    }

    /// The version a fetch that started when this connection had seen version `seen` takes,
    /// read just before its request: the file's counter, which the writes of every
    /// connection to the file advance (another process's, another `DiskCache`'s), so that
    /// what they wrote before it is no write the fetch must keep. When this connection has
    /// written a newer version since `seen` (a save of this process may have come after the
    /// fetch started), or the counter cannot be read: `seen`. A row it only read since (the
    /// validators a fetch sends, read from the row another connection wrote) is no write of
    /// its own: the fetch stores what it fetched over it.
    func startVersion(since seen: UInt64) -> UInt64 {
        guard writtenVersion.withLock({ $0 }) <= seen,
            let version = (try? Self.counter(in: database, operation: "read the cache in")) ?? nil
        else { return seen }
        seenVersion.withLock { $0 = max($0, UInt64(version)) }
        return max(seen, UInt64(version))
    }

    /// The file's write-version counter; `nil` when its row is missing or its value is not a
    /// positive integer.
    static func counter(in database: SQLiteDatabase, operation: String) throws -> Int? {
        let select = try database.prepare(
            """
            SELECT CASE WHEN typeof(last_version) = 'integer' AND last_version BETWEEN 1 AND \(Int64.max >> 2)
                THEN last_version END FROM content_loading_cache_counter WHERE id = 1
            """, operation: operation)
        return try select.step() ? select.optionalInt(at: 0) : nil
    }

    /// The bytes the stored entry for `key` takes, measured; 0 when there is none.
    private func storedBytes(of key: String) throws -> Int {
        let size = try database.prepare(
            "SELECT \(Self.rowBytes) FROM content_loading_cache WHERE key = ?", operation: "write the cache in")
        try size.bind(key, at: 1)
        return try size.step() ? size.int(at: 0) : 0
    }

    /// How many rows the last statement changed.
    func changedRows() throws -> Int {
        let changes = try database.prepare("SELECT changes()", operation: "write the cache in")
        return try changes.step() ? changes.int(at: 0) : 0
    }

    /// Writes the read times kept since the last write; inside a write's transaction.
    func recordReads() throws {
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
}
