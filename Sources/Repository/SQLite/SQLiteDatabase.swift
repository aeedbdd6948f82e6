#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// One SQLite connection: opening (a file, or in memory), migrations by version, transactions
/// and prepared statements.
///
/// Opening changes nothing in the file: ``SQLiteStore`` checks that the kit owns a database,
/// migrates it and switches it to WAL (see ``prepareForStore(migrations:)``).
///
/// Not thread-safe by itself: ``SQLiteStore`` owns one inside an actor, so every call runs
/// off the main actor, one at a time.
public final class SQLiteDatabase {
    /// Where the database lives.
    public enum Location: Sendable, Hashable {
        /// A file, created when missing. An empty path or `:memory:` names no file, and a path
        /// holding a NUL character names another file (the name ends at the NUL): opening
        /// either throws.
        case file(path: String)
        /// A private in-memory database, gone when closed.
        case inMemory
    }

    /// The file's path, or `:memory:`.
    public let path: String
    let handle: OpaquePointer
    /// Prepared statements no wrapper holds, by their SQL (see ``prepare(_:operation:)``).
    private var idleStatements: [String: [OpaquePointer]] = [:]
    private var idleCount = 0
    /// The most statements kept for reuse.
    static let idleLimit = 256
    /// Whether ``close()`` was called: every later call throws.
    public private(set) var isClosed = false

    /// How long a statement waits for another connection's lock before it fails.
    public static let busyTimeout: Duration = .seconds(5)

    /// Opens (creating when missing) the database at `location` and checks that it is one,
    /// without writing to it.
    ///
    /// - Throws: ``SQLiteError`` naming the path when the file cannot be opened or is not a
    ///   database.
    public init(_ location: Location) throws {
        let path: String
        switch location {
        case .file(let filePath): path = filePath
        case .inMemory: path = ":memory:"
        }
        self.path = path
        // NB: SQLite takes "" for a temporary database and ":memory:" for one in memory: a path
        // read from a setting that came out empty would lose every write at the next launch.
        if case .file = location, path.isEmpty || path == ":memory:" {
            throw SQLiteError(
                operation: "open", path: path.isEmpty ? "\"\"" : path, code: SQLITE_MISUSE,
                message: "it names no file (for a database in memory, use .inMemory)")
        }
        // NB: the file's name ends at a NUL: "/data/a\0b" opened "/data/a", without a word.
        if case .file = location, path.utf8.contains(0) {
            throw SQLiteError(
                operation: "open", path: path.escapingControlCharacters, code: SQLITE_MISUSE,
                message: "the path holds a NUL character, where a file's name ends")
        }
        #if !canImport(SQLite3)
            // NB: the library is bound at run time (CSQLite.h): a machine without it gets this.
            if let failure = clk_sqlite3_load() {
                throw SQLiteError(operation: "open", path: path, code: SQLITE_ERROR, message: String(cString: failure))
            }
        #endif
        // NB: an older library fails the first statement that needs more, with "near RETURNING:
        // syntax error".
        if let problem = Self.versionProblem(
            number: Int(sqlite3_libversion_number()), version: String(cString: sqlite3_libversion()))
        {
            throw SQLiteError(operation: "open", path: path, code: SQLITE_ERROR, message: problem)
        }
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw SQLiteError(
                operation: "open", path: path, code: code, message: Self.explained(message, code: code, path: path))
        }
        self.handle = handle
        sqlite3_busy_timeout(handle, waitsWhenBusy)
        do {
            // NB: reading the schema reads the header, so a file that is not a database fails
            // here, and it takes no write lock (another process may hold one).
            try execute("SELECT count(*) FROM sqlite_master", operation: "open")
            try execute("PRAGMA synchronous = NORMAL", operation: "open")
            try execute("PRAGMA foreign_keys = ON", operation: "open")
        } catch {
            sqlite3_close_v2(handle)
            throw error
        }
    }

    /// How many of this connection's transactions were rolled back: what a caller kept of a
    /// transaction's reads and writes in memory may not hold once the count moves.
    private(set) var rollbacks = 0

    /// How long, in milliseconds, a statement of this connection waits for another connection's
    /// lock: ``busyTimeout``, or 0 after ``failWhenBusy()``.
    private(set) var waitsWhenBusy = Int32(SQLiteDatabase.busyTimeout.components.seconds * 1_000)

    /// Makes a statement that meets another connection's lock fail at once (`SQLITE_BUSY`)
    /// instead of waiting up to ``busyTimeout``: for a read that must not block its caller.
    func failWhenBusy() {
        waitsWhenBusy = 0
        sqlite3_busy_timeout(handle, 0)
    }

    deinit {
        guard !isClosed else { return }
        finalizeIdleStatements()
        sqlite3_close_v2(handle)
    }

    /// Closes the connection now (the file is released once statements still alive are
    /// finalised). Later calls throw ``SQLiteError`` saying the database is closed; closing
    /// twice does nothing.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        finalizeIdleStatements()
        sqlite3_close_v2(handle)
    }

    /// Runs `sql` (one or more statements without results).
    public func execute(_ sql: String, operation: String = "execute") throws {
        try checkOpen(operation)
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? lastErrorMessage
            sqlite3_free(message)
            throw SQLiteError(
                operation: operation, path: path, code: code, message: Self.explained(text, code: code, path: path))
        }
    }

    /// Prepares `sql` for binding and stepping.
    ///
    /// A statement of the same `sql` that is no longer in use is handed out again (reset, its
    /// bindings cleared) instead of compiling the SQL anew.
    public func prepare(_ sql: String, operation: String = "prepare") throws -> SQLiteStatement {
        try checkOpen(operation)
        if let statement = idleStatements[sql]?.popLast() {
            idleCount -= 1
            return SQLiteStatement(statement, database: self, operation: operation, sql: sql)
        }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code, operation) }
        return SQLiteStatement(statement, database: self, operation: operation, sql: sql)
    }

    /// Takes back `statement` of `sql`, whose wrapper is gone: reset with its bindings cleared
    /// and kept for the next ``prepare(_:operation:)`` of `sql`, or finalised when the
    /// connection is closed or keeps enough already.
    func recycle(_ statement: OpaquePointer, sql: String) {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        guard !isClosed, idleCount < Self.idleLimit else {
            sqlite3_finalize(statement)
            return
        }
        idleStatements[sql, default: []].append(statement)
        idleCount += 1
    }

    private func finalizeIdleStatements() {
        for statements in idleStatements.values { statements.forEach { sqlite3_finalize($0) } }
        idleStatements = [:]
        idleCount = 0
    }

    private func checkOpen(_ operation: String) throws {
        guard isClosed else { return }
        throw SQLiteError(operation: operation, path: path, code: SQLITE_MISUSE, message: "the database was closed")
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    ///
    /// - Throws: ``SQLiteError`` when the file was deleted, moved or replaced since it was
    ///   opened (`SQLITE_READONLY_DBMOVED`; `body` does not run): what it wrote would be gone
    ///   at the next launch. Or what `body` or the commit throws.
    ///
    /// NB: `BEGIN` waits up to ``busyTimeout`` for another connection's write lock, blocking the
    /// calling thread; `DiskCache` waits without a thread (see `DiskCache+WriteLock.swift`).
    public func transaction<T>(operation: String = "write", _ body: () throws -> T) throws -> T {
        try run("BEGIN IMMEDIATE", operation: operation)
        return try commitOrRollBack(operation: operation, body)
    }

    /// Begins a write transaction (`BEGIN IMMEDIATE`) unless another connection holds the
    /// file's write lock, without waiting for it.
    ///
    /// - Returns: `nil` when the transaction began: end it with
    ///   ``commitOrRollBack(operation:_:)``. Otherwise the error saying the file is locked
    ///   (nothing began).
    /// - Throws: ``SQLiteError`` when `BEGIN` fails for another reason.
    func beginWriteUnlessLocked(operation: String) throws -> SQLiteError? {
        sqlite3_busy_timeout(handle, 0)
        defer { sqlite3_busy_timeout(handle, waitsWhenBusy) }
        do {
            try run("BEGIN IMMEDIATE", operation: operation)
            return nil
        } catch let error as SQLiteError where error.code & 0xFF == SQLITE_BUSY {
            return error
        }
    }

    /// Runs `body` in the write transaction this connection began: commits when it returns,
    /// rolls back when it (or the commit) throws. Nothing is written to a file that was deleted,
    /// moved or replaced since it was opened (see `SQLiteDatabase+MovedFile.swift`).
    func commitOrRollBack<T>(operation: String, _ body: () throws -> T) throws -> T {
        do {
            try refuseWritesIfFileMoved(operation: operation)
            let result = try body()
            try run("COMMIT", operation: operation)
            return result
        } catch {
            try? run("ROLLBACK", operation: operation)
            rollbacks += 1
            throw error
        }
    }

    /// Runs `body` in one read transaction: every read in it sees the same state of the file.
    func readTransaction<T>(operation: String, _ body: () throws -> T) throws -> T {
        try run("BEGIN DEFERRED", operation: operation)
        defer { try? run("COMMIT", operation: operation) }
        return try body()
    }

    /// Runs one statement without results through ``prepare(_:operation:)``, so a statement
    /// run often (a transaction's `BEGIN` and `COMMIT`) is compiled once.
    func run(_ sql: String, operation: String) throws {
        let statement = try prepare(sql, operation: operation)
        while try statement.step() {}
    }

    /// The schema version (`PRAGMA user_version`).
    public func schemaVersion() throws -> Int {
        try integerPragma("user_version", operation: "read the schema version of")
    }

    /// Brings the schema to the last version of `migrations`: migration `n` (0-based) takes the
    /// schema from version `n` to `n + 1`.
    ///
    /// All the pending migrations run in one transaction that reads the version again inside
    /// it, so two processes migrating at once apply each migration once, and a failed
    /// migration leaves the database as it was. A database already at the last version is
    /// only read.
    ///
    /// - Parameters:
    ///   - migrations: The schema's SQL, one migration per version, oldest first.
    ///   - check: Runs inside the migration transaction before the migrations, with the
    ///     version found there (the store checks there that the kit owns the file).
    /// - Throws: ``SQLiteError`` when a migration fails (nothing changes), or when the database
    ///   is newer than this code knows or its version is negative (a damaged header).
    public func migrate(_ migrations: [String], inTransaction check: (Int) throws -> Void = { _ in }) throws {
        try migrate(migrations, freshSchema: { nil }, inTransaction: check)
    }

    /// ``migrate(_:inTransaction:)``, where a database at version 0 runs what `freshSchema`
    /// gives (what the migrations make of an empty database, see ``freshSchema(after:)``)
    /// instead of each migration. `freshSchema` is called only then: a database at its last
    /// version never makes the script.
    func migrate(
        _ migrations: [String], freshSchema: () -> String?, inTransaction check: (Int) throws -> Void
    ) throws {
        guard try schemaVersion() != migrations.count else { return }
        try transaction(operation: "migrate") {
            let current = try schemaVersion()
            guard current <= migrations.count else {
                throw SQLiteError(
                    operation: "migrate", path: path, code: SQLITE_ERROR,
                    message: "schema version \(current) is newer than this code knows (\(migrations.count))")
            }
            // NB: `user_version` is a signed 32-bit number in the file's header, which a damaged
            // file (or another program) can make negative; no migration starts there.
            guard current >= 0 else {
                throw SQLiteError(
                    operation: "migrate", path: path, code: SQLITE_ERROR,
                    message: "schema version \(current) is not one this code made (0 to \(migrations.count)); "
                        + "the file's header may be damaged")
            }
            try check(current)
            if current == 0, let script = freshSchema() {
                try execute(script, operation: "create the schema of")
                try execute("PRAGMA user_version = \(migrations.count)", operation: "create the schema of")
                return
            }
            for version in current..<migrations.count {
                let operation = "migrate to version \(version + 1)"
                try execute(migrations[version], operation: operation)
                try execute("PRAGMA user_version = \(version + 1)", operation: operation)
            }
        }
    }

    /// The value of an integer pragma such as `user_version`.
    func integerPragma(_ name: String, operation: String) throws -> Int {
        let statement = try prepare("PRAGMA \(name)", operation: operation)
        guard try statement.step() else { return 0 }
        return statement.int(at: 0)
    }

    var lastErrorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    func error(_ code: Int32, _ operation: String) -> SQLiteError {
        SQLiteError(
            operation: operation, path: path, code: code,
            message: Self.explained(lastErrorMessage, code: code, path: path))
    }
}
