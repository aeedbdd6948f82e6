#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// A prepared statement: bind parameters (1-based), step through rows, read columns (0-based).
public final class SQLiteStatement {
    let statement: OpaquePointer
    private let database: SQLiteDatabase
    private let operation: String
    /// The SQL it was prepared from: the connection keeps the statement for it when this
    /// wrapper goes.
    private let sql: String

    init(_ statement: OpaquePointer, database: SQLiteDatabase, operation: String, sql: String) {
        self.statement = statement
        self.database = database
        self.operation = operation
        self.sql = sql
    }

    deinit {
        database.recycle(statement, sql: sql)
    }

    /// Binds `value` to parameter `index` (from 1); `nil` binds NULL.
    public func bind(_ value: Int?, at index: Int32) throws {
        try check(value.map { sqlite3_bind_int64(statement, index, Int64($0)) } ?? sqlite3_bind_null(statement, index))
    }

    /// Binds `value` to parameter `index` (from 1); `nil` binds NULL.
    public func bind(_ value: String?, at index: Int32) throws {
        guard var value else { return try check(sqlite3_bind_null(statement, index)) }
        // NB: the UTF-8 is passed with its length: no NUL-terminated copy (which a small string needs).
        let code = value.withUTF8 { utf8 in
            Self.bindingCopy(of: UnsafeRawBufferPointer(utf8)) { copy, bytes, free in
                sqlite3_bind_text(statement, index, copy.bindMemory(to: CChar.self, capacity: Int(bytes)), bytes, free)
            }
        }
        try check(code)
    }

    /// Binds `value` to parameter `index` (from 1); `nil` binds NULL.
    public func bind(_ value: Double?, at index: Int32) throws {
        try check(value.map { sqlite3_bind_double(statement, index, $0) } ?? sqlite3_bind_null(statement, index))
    }

    /// Advances to the next row: `true` when there is one, `false` when done.
    @discardableResult
    public func step() throws -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw database.error(code, operation)
        }
    }

    /// Resets the statement to run again, clearing its bindings.
    public func reset() throws {
        try reset(clearingBindings: true)
    }

    /// Resets the statement to run again; keeps its bindings unless `clearingBindings`, for a
    /// caller that binds every parameter anew.
    func reset(clearingBindings: Bool) throws {
        sqlite3_reset(statement)
        if clearingBindings { try check(sqlite3_clear_bindings(statement)) }
    }

    /// The integer in column `index` (from 0) of the current row.
    public func int(at index: Int32) -> Int { Int(sqlite3_column_int64(statement, index)) }

    /// The integer in column `index`, or `nil` for NULL.
    public func optionalInt(at index: Int32) -> Int? { isNull(at: index) ? nil : int(at: index) }

    /// The double in column `index`, or `nil` for NULL.
    public func optionalDouble(at index: Int32) -> Double? {
        isNull(at: index) ? nil : sqlite3_column_double(statement, index)
    }

    /// The text in column `index`, or `nil` for NULL.
    public func text(at index: Int32) -> String? {
        guard let text = sqlite3_column_text(statement, index) else { return nil }
        // NB: the length is known (and must be asked for after the text, per SQLite's docs).
        let count = Int(sqlite3_column_bytes(statement, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    private func isNull(at index: Int32) -> Bool { sqlite3_column_type(statement, index) == SQLITE_NULL }

    func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw database.error(code, operation) }
    }
}
