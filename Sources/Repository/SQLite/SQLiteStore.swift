import ContentLoading
import ContentLoadingSupport
import Foundation

/// A ``LocalStore`` in SQLite: one table of ``SQLiteRecord``s, observed, written in transactions.
///
/// A file database runs in WAL mode: a process killed in the middle of a write leaves the
/// previous data intact. All work happens on the store's actor, off the main actor and off the
/// cooperative pool (on a queue of the store's own). Once the file at the path is not the one
/// it opened (deleted, moved or replaced), every write throws an ``SQLiteError`` naming the
/// path and writes nothing; reads go on.
///
/// ```swift
/// let store = try SQLiteStore<SellerContacts>(.file(path: "/var/db/contacts.sqlite"))
/// try await store.replaceAll(with: contacts, syncedAt: .now)
/// ```
public actor SQLiteStore<Record: SQLiteRecord>: LocalStore {
    /// The connection.
    let database: SQLiteDatabase
    /// Where the store's work runs: a queue of its own, not the cooperative pool, whose few
    /// threads a write waiting out another connection's lock would hold (see
    /// ``SQLiteDatabase/busyTimeout``).
    private nonisolated let executor = DispatchQueueExecutor(label: "ContentLoadingKit.SQLiteStore")
    /// The store's executor (see `executor`).
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    let observers = StoreObservers<Record>()
    /// Called with the number of rows written so far, every 1,000 rows of a write; for tests
    /// that need to act in the middle of a transaction.
    var writeProgress: (@Sendable (Int) -> Void)?

    private static var metadataMigration: String {
        "CREATE TABLE IF NOT EXISTS content_loading_metadata (key TEXT PRIMARY KEY NOT NULL, value TEXT)"
    }

    /// Opens the database at `location`, creating or migrating the schema.
    ///
    /// A database the kit did not create is refused before anything in it changes, and a
    /// failed migration changes nothing (see ``SQLiteDatabase/prepareForStore(migrations:)``).
    ///
    /// - Throws: ``SQLiteError`` naming the path when the database cannot be opened, is not a
    ///   database, is not the kit's, or cannot be migrated.
    public init(_ location: SQLiteDatabase.Location) throws {
        database = try SQLiteDatabase(location)
        try database.prepareForStore(migrations: [Self.metadataMigration] + Record.migrations)
    }

    /// Closes the database file now, without waiting for every reference to the store to go:
    /// observers' streams finish, and every later call throws ``SQLiteError`` ("the database
    /// was closed", naming the path). Closing twice does nothing.
    ///
    /// ```swift
    /// await store.close()   // e.g. before deleting or replacing the file
    /// ```
    public func close() {
        database.close()
        observers.finish()
    }

    /// Sets the write-progress hook (see `writeProgress`); for crash tests.
    package func setWriteProgress(_ hook: (@Sendable (Int) -> Void)?) { writeProgress = hook }

    /// A new stream of all elements: the current ones first, then every committed change (see ``LocalStore/observe()``).
    public func observe() throws -> AsyncStream<[Record]> {
        observers.subscribe(current: try fetchAll())
    }

    /// All elements, in the store's order.
    public func fetchAll() throws -> [Record] {
        let columns = Record.columns.joined(separator: ", ")
        let statement = try database.prepare(
            "SELECT \(columns) FROM \(Record.tableName) ORDER BY \(Record.orderBy)", operation: "read")
        var records: [Record] = []
        while try statement.step() { records.append(try Record(row: statement)) }
        return records
    }

    /// Inserts the elements, replacing any with the same id, in one transaction.
    ///
    /// - Throws: `DuplicateIDError` when `records` repeat an id (nothing is written), or
    ///   ``SQLiteError``.
    public func write(_ records: [Record]) throws {
        try DuplicateIDError.check(records)
        try commit { try insert(records) }
    }

    /// Makes the elements the whole content and records the sync time, in one transaction.
    ///
    /// - Throws: `DuplicateIDError` when `records` repeat an id (nothing is written), or
    ///   ``SQLiteError``.
    public func replaceAll(with records: [Record], syncedAt: Date?) throws {
        try DuplicateIDError.check(records)
        try commit {
            try database.execute("DELETE FROM \(Record.tableName)", operation: "write")
            try insert(records)
            if let syncedAt { try storeSyncDate(syncedAt) }
        }
    }

    /// Deletes the elements with these ids, in one transaction.
    public func delete(ids: [Record.ID]) throws {
        try commit {
            let statement = try database.prepare(
                "DELETE FROM \(Record.tableName) WHERE \(Record.columns[0]) = ?", operation: "delete from")
            for id in ids {
                try Record.bind(id: id, to: statement, at: 1)
                try statement.step()
                try statement.reset()
            }
        }
    }

    /// When the last successful sync happened, or `nil` when never.
    public func lastSyncDate() throws -> Date? {
        let statement = try database.prepare(
            "SELECT value FROM content_loading_metadata WHERE key = 'last_sync'", operation: "read")
        // NB: a time that is not a finite one within ±3,000 years of 1970 (a corrupt file) reads as
        // "never synced": the next sync fetches, and the data stays.
        guard try statement.step(), let text = statement.text(at: 0), let seconds = Double(text),
            Date.isStorable(secondsSince1970: seconds)
        else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// Records the time of the last successful sync.
    public func setLastSyncDate(_ date: Date) throws {
        try database.transaction { try storeSyncDate(date) }
    }

    // MARK: - Private

    /// Runs `body` in a transaction; observers see the result once, after the commit.
    private func commit(_ body: () throws -> Void) throws {
        let observed = observers.isObserved
        // NB: the new list is read inside the transaction, so what observers see is exactly
        // what was committed; nobody observing, nothing to read.
        let records = try database.transaction { () throws -> [Record]? in
            try body()
            return observed ? try fetchAll() : nil
        }
        if let records { observers.publish(records) }
    }

    private func insert(_ records: [Record]) throws {
        let placeholders = Array(repeating: "?", count: Record.columns.count).joined(separator: ", ")
        let statement = try database.prepare(
            "INSERT OR REPLACE INTO \(Record.tableName) (\(Record.columns.joined(separator: ", "))) VALUES (\(placeholders))",
            operation: "write")
        for index in records.indices {
            try records[index].bind(to: statement)
            try statement.step()
            try statement.reset(clearingBindings: false)  // NB: `bind(to:)` binds every column.
            if (index + 1) % 1_000 == 0 { writeProgress?(index + 1) }
        }
    }

    private func storeSyncDate(_ date: Date) throws {
        let statement = try database.prepare(
            "INSERT OR REPLACE INTO content_loading_metadata (key, value) VALUES ('last_sync', ?)", operation: "write")
        try statement.bind(String(date.timeIntervalSince1970), at: 1)
        try statement.step()
    }
}
