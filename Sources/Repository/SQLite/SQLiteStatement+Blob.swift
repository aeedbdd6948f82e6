import Foundation

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

extension SQLiteStatement {
    /// Binds `value` to parameter `index` (from 1) as a blob; `nil` binds NULL.
    public func bind(_ value: Data?, at index: Int32) throws {
        guard let value else { return try bind(nil as Int?, at: index) }
        // NB: SQLITE_TRANSIENT: SQLite copies the bytes. An empty blob still needs an address,
        // or SQLite stores NULL.
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        let code = value.withUnsafeBytes { bytes in
            sqlite3_bind_blob(
                statement, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), transient)
        }
        try check(code)
    }

    /// The blob in column `index` (from 0) of the current row, or `nil` for NULL.
    public func data(at index: Int32) -> Data? {
        guard sqlite3_column_type(statement, index) != SQLITE_NULL else { return nil }
        let bytes = sqlite3_column_blob(statement, index)
        let count = Int(sqlite3_column_bytes(statement, index))
        guard let bytes, count > 0 else { return Data() }
        return Data(bytes: bytes, count: count)
    }
}
