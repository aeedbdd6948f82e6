import ContentLoading
import ContentLoadingSupport
import Foundation

/// The disk tier: encoded values in a table of the kit's SQLite layer, bounded by total bytes,
/// evicting the least recently read entries when a write goes over the limit. A value is kept
/// apart from its entry's bookkeeping (its read and write times, version and validators), so
/// a read or a revalidation answered "not modified" writes the bookkeeping, never the value
/// again.
///
/// Every write is a transaction, so a crash leaves the previous value. Each entry carries its
/// write time (its age survives a restart), the format version of the code that wrote it
/// (entries of another format are discarded) and a write version that a counter in the same
/// file advances in the write's own transaction: versions order writes across processes and
/// relaunches, whatever the clocks say. Work runs on the actor, off the main actor.
///
/// What a row holds is data, not truth: a row whose version, write time or value does not
/// validate is a miss and an error, and is removed; the byte total is the one every write keeps
/// in the file, or measured from the stored keys and values when that one does not validate,
/// never summed from the entries' size column. A value larger than ``byteLimit`` is not stored
/// (an error), and the other entries stay.
///
/// ```swift
/// let disk = try DiskCache(.file(path: "cache.sqlite"), byteLimit: 64 << 20)
/// ```
///
/// Make one `DiskCache` per file in a process, and give it to every repository, element store
/// and outbox: what is made over one `DiskCache` shares its readers. A second `DiskCache` over
/// the file is another connection, as another process's is: its writes reach this one's
/// readers when they next read the file. A write that meets another connection's write lock
/// waits for it, up to ``SQLiteDatabase/busyTimeout`` (then it fails saying the database is
/// locked), without holding a thread: the cache answers reads meanwhile. Once the file at the
/// path is not the one it opened (deleted, moved or replaced), every write fails with an
/// ``SQLiteError`` naming the path and writes nothing; reads go on.
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
    /// The most bytes of keys and values kept.
    public let byteLimit: Int
    /// The format the entries are written in; entries of another format are discarded when the
    /// cache opens.
    public let formatVersion: Int
    let database: SQLiteDatabase
    /// The total size of the keys and values, kept as rows are written and removed; taken from
    /// the file by the first write, and again when another connection has written to it (see
    /// `DiskCache+ByteTotal.swift`).
    var totalBytes = 0
    /// The file's mark (``FileMark``) when ``totalBytes`` was last measured; `nil` before it is
    /// first measured.
    ///
    /// NB: not read at open, which an app pays at launch, on the thread that opens the cache.
    var totalBytesRead: FileMark?
    /// When each entry read since the last write was read, by key.
    var pendingReads: [String: Double] = [:]
    /// The write version at which the open read every entry's format and found only its own,
    /// the range saying otherwise; the first write narrows the range when no write came
    /// between (see `DiskCache+Formats.swift`).
    var formatsReadAt: UInt64?
    /// Makes a write fail or wait (for tests): called before each write changes anything.
    var writeFault: (@Sendable (String) async throws -> Void)?
    /// The highest write version this connection has seen in the file.
    let seenVersion: Locked<UInt64>
    /// The highest write version this connection took for a write of its own (0: none yet).
    let writtenVersion = Locked<UInt64>(0)
    /// The connection that reads the file's counter off the actor (see `DiskCache+FileVersion.swift`).
    let counterReader = Locked(CounterReader())
    /// The outboxes' overlays, by element type (see `DiskCache+Outbox.swift`): set without a
    /// hop onto the actor, so an outbox has its overlay in place before any write after it is
    /// made.
    let overlaySlots = Locked<[String: ElementOverlay]>([:])
    /// The last request of each pending mutation, by its sequence (see
    /// `DiskCache+SentRequests.swift`).
    let sentRequests = Locked<[Int: SentRequest]>([:])
    /// What the element stores and outboxes over this connection share, by what it is for
    /// (see `DiskCache+Shared.swift`).
    let sharedParts = Locked<[String: any Sendable]>([:])

    /// The overlay of element `type`, if an outbox set one.
    func overlay(for type: String) -> ElementOverlay? { overlaySlots.withLock { $0[type] } }
    /// The elements with pending mutations (type, U+001F, id), whose server values are kept
    /// apart: read from the file again when another connection has written since (see
    /// `syncPendingElements()`).
    var pendingElements: Set<String>
    /// The file's mark (``FileMark``) when ``pendingElements`` was read from the file.
    var pendingElementsRead: FileMark
    /// Held by each write from before its `BEGIN` to its commit: one waiting for another
    /// connection's write lock holds this connection's later writes behind it, in the order
    /// they came (see `DiskCache+WriteLock.swift`).
    nonisolated let writeLock = AsyncLock()
    /// How long a write waits for another connection's write lock before it fails: the busy
    /// timeout (tests set another, see `setLockTimeout(_:)`).
    var lockTimeout = SQLiteDatabase.busyTimeout

    static let migrations = [
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
        // 3: the write-version counter, started above every version stored (earlier versions
        // were wall-clock microseconds).
        """
        CREATE TABLE content_loading_cache_counter (
            id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
            last_version INTEGER NOT NULL
        );
        INSERT INTO content_loading_cache_counter VALUES (1, (\(validVersionsMaximum)))
        """,
        // 4: how long the response said the value is fresh (Cache-Control max-age, Expires),
        // in seconds; NULL when it did not say.
        "ALTER TABLE content_loading_cache ADD COLUMN max_age REAL",
        // 5: records (see `DiskCache+Records.swift`).
        recordsSchema,
        // 6: the pages of paged lists (see `DiskCache+Pages.swift`).
        pagesSchema,
        // 7: the outbox of mutations and the server values they apply to (see `DiskCache+Outbox.swift`).
        outboxSchema,
        // 8: elements written by id stay when the lists that held them go (see `DiskCache+Records.swift`).
        heldByIDSchema,
        // 9: removals of elements that a fetch started before them must not undo (see `DiskCache+Removals.swift`).
        removalsSchema,
        // 10: the values apart from the entries' bookkeeping (see `DiskCache+Values.swift`).
        valuesApartSchema,
        // 11: stored pages served without some of their elements (see `DiskCache+UnreadablePages.swift`).
        incompletePagesSchema,
        // 12: the range of formats the entries are in (see `DiskCache+Formats.swift`).
        formatRangeSchema,
        // 13: the byte total kept in the file (see `DiskCache+ByteTotal.swift`).
        byteTotalSchema,
    ]

    /// What ``migrations`` make of an empty database, as one script that a new file runs
    /// instead of each; `nil` when that failed, and a new file then runs each migration.
    /// Made in memory by the first new database of the process (the migrations' own 1.4 ms
    /// in a debug build here, so that one database takes 0.6 ms longer than it did), never by
    /// one that opens an existing file: an app's launches after its first do not make it.
    static let freshSchema = try? SQLiteDatabase.freshSchema(after: migrations)

    /// The highest valid version stored, 0 when none.
    static let validVersionsMaximum = """
        SELECT coalesce(max(version), 0) FROM content_loading_cache
            WHERE typeof(version) = 'integer' AND version BETWEEN 1 AND \(Int64.max >> 2)
        """

    /// Opens (or creates) the disk tier at `location`.
    ///
    /// Opening writes only when the file is new, needs a migration or holds entries of another
    /// format; then it waits for another connection's write lock as SQLite does, on the calling
    /// thread, up to ``SQLiteDatabase/busyTimeout``. The writes after it wait without a thread.
    ///
    /// - Parameters:
    ///   - location: A file (one of its own, or a database the kit created) or memory.
    ///   - byteLimit: The most bytes of keys and values kept. Defaults to 64 MiB.
    ///   - formatVersion: Bump it when the encoded form of the values changes: entries written
    ///     with another version are discarded. Defaults to 1.
    /// - Throws: ``SQLiteError`` naming the file when it cannot be opened or is not the kit's.
    public init(_ location: SQLiteDatabase.Location, byteLimit: Int = 64 << 20, formatVersion: Int = 1) throws {
        database = try SQLiteDatabase(location)
        try database.prepareForStore(migrations: Self.migrations, freshSchema: { Self.freshSchema })
        path = database.path
        self.byteLimit = byteLimit
        self.formatVersion = formatVersion
        let (version, onlyThisFormat) = try Self.versionAndFormats(in: database, format: formatVersion)
        if !onlyThisFormat {
            if try Self.holdsEntries(in: database, otherThanFormat: formatVersion) {
                try Self.discardEntries(in: database, otherThanFormat: formatVersion)
            } else if version > 0 {
                formatsReadAt = version
            }
        }
        seenVersion = Locked(version)
        pendingElements = try Self.pendingElements(in: database)
        pendingElementsRead = try Self.fileMark(of: database)
    }

    /// The entry for `key`, marked as read at `now` (written with the next write); `nil` when
    /// there is none.
    ///
    /// - Throws: ``CorruptEntry`` when the row does not validate; ``SQLiteError`` when it
    ///   cannot be read.
    func entry(for key: String, now: Date) throws -> Entry? {
        let select = try database.prepare(
            """
            SELECT v.value, \(Self.validWrittenAt), \(Self.validVersion), entity_tag, last_modified, written_at, version,
                    max_age
                FROM content_loading_cache c LEFT JOIN content_loading_cache_values v ON v.key = c.key WHERE c.key = ?
            """, operation: "read the cache in")
        try select.bind(key, at: 1)
        guard try select.step() else { return nil }
        let (data, writtenAt) = try CorruptEntry.checking(rowAt: select.optionalInt(at: 2)) {
            guard let data = select.data(at: 0) else { throw CorruptEntry(reason: "its value is missing") }
            return (data, try Self.writtenAt(select.optionalDouble(at: 1), shown: select.text(at: 5)))
        }
        guard let version = select.optionalInt(at: 2) else {
            throw CorruptEntry(reason: "its version \(select.text(at: 6) ?? "NULL") is not a positive integer")
        }
        // NB: the read time is kept here and written with the next write (the only time
        // recency matters: eviction), so a read is one SELECT and never a write transaction.
        pendingReads[key] = now.timeIntervalSince1970
        seenVersion.withLock { $0 = max($0, UInt64(version)) }
        return Entry(
            data: data, writtenAt: writtenAt, version: UInt64(version),
            validators: Validators(
                entityTag: select.text(at: 3), lastModified: select.text(at: 4),
                freshness: Self.freshness(maxAge: select, at: 7)))
    }

    /// The validators stored with the entry for `key` and its write time (its value is not
    /// read); `nil` when there is no entry, or its write time does not validate.
    func validators(for key: String) throws -> (validators: Validators, writtenAt: Date)? {
        let select = try database.prepare(
            "SELECT entity_tag, last_modified, \(Self.validWrittenAt), max_age FROM content_loading_cache WHERE key = ?",
            operation: "read the cache in")
        try select.bind(key, at: 1)
        guard try select.step(), let writtenAt = try? Self.writtenAt(select.optionalDouble(at: 2), shown: nil) else {
            return nil
        }
        let validators = Validators(
            entityTag: select.text(at: 0), lastModified: select.text(at: 1),
            freshness: Self.freshness(maxAge: select, at: 3))
        return (validators, writtenAt)
    }

    /// The freshness stored in column `index` of `row` (seconds of `max-age`): `nil` for NULL;
    /// a value that is not a finite number of seconds from 0 to 2³¹ reads as stale at once.
    static func freshness(maxAge row: SQLiteStatement, at index: Int32) -> Freshness? {
        guard let seconds = row.optionalDouble(at: index) else { return nil }
        guard seconds.isFinite, (0...2_147_483_648).contains(seconds) else { return Freshness(maxAge: .zero) }
        return Freshness(maxAge: .milliseconds(Int64((seconds * 1_000).rounded())))
    }

    /// Binds `validators` as the file stores them (entity tag, last modified, `max-age` in
    /// seconds) to parameters `first`, `first + 1` and `first + 2` of `statement`.
    static func bind(_ validators: Validators, to statement: SQLiteStatement, at first: Int32) throws {
        try statement.bind(validators.entityTag, at: first)
        try statement.bind(validators.lastModified, at: first + 1)
        try statement.bind(storedMaxAge(validators), at: first + 2)
    }

    /// The `max-age` of `validators` in seconds, as stored; `nil` when it has none.
    static func storedMaxAge(_ validators: Validators) -> Double? {
        guard let maxAge = validators.freshness?.maxAge else { return nil }
        return maxAge.seconds
    }

    /// The SQL for a row's version when it is a positive integer, NULL otherwise.
    static let validVersion =
        "CASE WHEN typeof(version) = 'integer' AND version BETWEEN 1 AND \(Int64.max >> 2) THEN version END"
    /// The SQL for a row's write time when it is a number, NULL otherwise.
    static let validWrittenAt = "CASE WHEN typeof(written_at) IN ('real', 'integer') THEN written_at END"

    /// The write time `seconds` since 1970 stands for, when it is a finite time within ±3,000
    /// years of 1970.
    ///
    /// - Throws: ``CorruptEntry`` naming the value (`shown`, as stored) otherwise.
    static func writtenAt(_ seconds: Double?, shown: String?) throws -> Date {
        guard let seconds, Date.isStorable(secondsSince1970: seconds) else {
            throw CorruptEntry(reason: "its write time \(shown ?? seconds.map { "\($0)" } ?? "NULL") is not a time")
        }
        return Date(timeIntervalSince1970: seconds)
    }

    /// The total size of the stored keys and values: the one the file keeps (read the first
    /// time it is asked for or a value is written, and again after another connection wrote to
    /// the file; measured from the rows when the file's does not validate). When the file cannot
    /// be read then, the size last known, or 0.
    public var storedBytes: Int {
        try? syncTotalBytes()
        return totalBytes
    }

    /// The highest write version this connection has seen in the file (its own writes and the
    /// rows it read); what an invalidation marks stale goes up to it.
    nonisolated var latestVersion: UInt64 { seenVersion.withLock { $0 } }

    /// The stored keys, least recently read first.
    public func keysByAccess() async throws -> [String] {
        if !pendingReads.isEmpty { try await writeTransaction(operation: "write the cache in") { try recordReads() } }
        let select = try database.prepare(
            "SELECT key FROM content_loading_cache ORDER BY accessed_at, key", operation: "read the cache in")
        var keys: [String] = []
        while try select.step() { keys.append(select.text(at: 0) ?? "") }
        return keys
    }

    /// Closes the cache file now, without waiting for every reference to the cache to go:
    /// every later read or write is an error saying the database was closed (a read is a miss
    /// with that error event). Closing twice does nothing.
    ///
    /// ```swift
    /// await disk.close()   // e.g. before deleting or replacing the file
    /// ```
    public func close() {
        database.close()
        closeCounterReader()
    }

    /// Makes writes fail with what `fault` throws, or wait while it waits; `nil` restores them
    /// (for tests of a full disk, or of what happens while a write is under way).
    package func setWriteFault(_ fault: (@Sendable (String) async throws -> Void)?) { writeFault = fault }
}

extension DiskCache {
    /// A stored row that does not validate: its version, write time or value is not what the
    /// kit writes.
    struct CorruptEntry: Error, CustomStringConvertible {
        let reason: String
        /// The row's version when it validates; `nil` when it does not (or was not read). A
        /// removal of the row takes it only while it is still at that version (``FoundRow``).
        var version: Int? = nil
        var description: String { "the stored entry is corrupt: \(reason)" }

        /// Runs `body`, which checks a row at `version`; a ``CorruptEntry`` it throws names it.
        static func checking<T>(rowAt version: Int?, _ body: () throws -> T) throws -> T {
            do { return try body() } catch var corrupt as CorruptEntry {
                corrupt.version = version
                throw corrupt
            }
        }
    }

    /// A value too large for the disk tier: it is not stored.
    struct OverLimit: Error, CustomStringConvertible {
        let bytes: Int
        let limit: Int
        var description: String {
            "the entry takes \(bytes) bytes, more than the disk tier's limit of \(limit) bytes; it is not stored"
        }
    }
}
