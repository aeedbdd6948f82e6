#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

extension SQLiteDatabase {
    /// The `application_id` the kit writes into every database it creates ("CLKT").
    public static let kitApplicationID = 0x434C_4B54

    /// Makes the database ready for a ``SQLiteStore``: refuses a database the kit did not
    /// create, brings the schema to the last of `migrations`, then switches a file to WAL
    /// (when no other connection is writing; otherwise a later open does).
    ///
    /// The kit owns a database that carries its ``kitApplicationID``, one it created before it
    /// wrote that id (it has the kit's `content_loading_metadata` table), or an empty one. Any
    /// other (another app's tables, another `application_id` or `user_version`) is refused
    /// before anything in it changes. A database already ready is only read, so opening one
    /// works while another process holds its write lock; a write waits out the busy timeout.
    ///
    /// - Throws: ``SQLiteError`` naming the path: a database the kit does not own, a failed
    ///   migration (nothing changed), or a lock that outlasted ``busyTimeout``.
    public func prepareForStore(migrations: [String]) throws {
        try prepareForStore(migrations: migrations, freshSchema: { nil })
    }

    /// ``prepareForStore(migrations:)``, where a new database runs what `freshSchema` gives
    /// instead of each migration (see ``migrate(_:freshSchema:inTransaction:)``).
    func prepareForStore(migrations: [String], freshSchema: () -> String?) throws {
        // NB: one read transaction, so the id, the version and the tables are read from one
        // state of the file: read one by one, another process creating the file in between
        // showed its tables without its id ("not created by ContentLoadingKit").
        try readTransaction(operation: "open") { try checkOwnership() }
        try migrate(migrations, freshSchema: freshSchema) { _ in
            // NB: checked again inside the transaction: another process may have written since.
            try checkOwnership()
            try execute("PRAGMA application_id = \(Self.kitApplicationID)", operation: "migrate")
        }
        if path != ":memory:" { try switchToWAL() }
    }

    private func checkOwnership() throws {
        let applicationID = try integerPragma("application_id", operation: "open")
        guard applicationID != Self.kitApplicationID else { return }
        let version = try schemaVersion()
        let names = try schemaNames()
        let isEmpty = applicationID == 0 && version == 0 && names.isEmpty
        let isEarlierKit = applicationID == 0 && names.contains("content_loading_metadata")
        guard isEmpty || isEarlierKit else {
            let shown = names.prefix(5).joined(separator: ", ") + (names.count > 5 ? ", …" : "")
            throw SQLiteError(
                operation: "open", path: path, code: SQLITE_ERROR,
                message:
                    "it was not created by ContentLoadingKit (application_id \(applicationID), user_version \(version)"
                    + (names.isEmpty ? "" : ", holding \(shown)") + "); refusing to change it")
        }
    }

    /// The names of the tables, indexes, views and triggers, but SQLite's own.
    private func schemaNames() throws -> [String] {
        let statement = try prepare(
            "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name", operation: "open")
        var names: [String] = []
        while try statement.step() { names.append(statement.text(at: 0) ?? "") }
        return names
    }

    /// The journal mode, e.g. `wal` or `delete`.
    private func journalMode() throws -> String? {
        // NB: the statement is finalised on return, so it holds no read transaction open.
        let statement = try prepare("PRAGMA journal_mode", operation: "open")
        return try statement.step() ? statement.text(at: 0)?.lowercased() : nil
    }

    /// Switches to WAL unless the file is in WAL already, or another connection is writing.
    ///
    /// NB: the switch needs the file to itself, and SQLite does not wait for it (the busy
    /// handler is not called). WAL is how writers and readers share the file; the rollback
    /// journal is as safe in a crash. So a database busy now stays in its mode, and opening
    /// it for reading never fails on another process's write lock: the next open switches.
    private func switchToWAL() throws {
        guard try journalMode() != "wal" else { return }
        do {
            try execute("PRAGMA journal_mode = WAL", operation: "switch to WAL")
        } catch let error as SQLiteError where error.code == SQLITE_BUSY || error.code == SQLITE_LOCKED {
            return
        }
    }
}
