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
        let code = value.withUnsafeBytes { bytes in
            Self.bindingCopy(of: bytes) { copy, count, free in sqlite3_bind_blob(statement, index, copy, count, free) }
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

extension SQLiteStatement {
    /// Runs `bind` with a copy of `bytes` that SQLite owns and frees (`free` is the destructor
    /// it is given), and returns its result code: what `SQLITE_TRANSIENT` asks SQLite to do,
    /// without casting -1 to a function pointer. The copy is never NULL, even of no bytes
    /// (SQLite would bind NULL); SQLite frees it even when the bind fails.
    static func bindingCopy(
        of bytes: UnsafeRawBufferPointer,
        _ bind: (UnsafeMutableRawPointer, Int32, @convention(c) (UnsafeMutableRawPointer?) -> Void) -> Int32
    ) -> Int32 {
        guard let copy = malloc(max(bytes.count, 1)) else { return SQLITE_NOMEM }
        if let base = bytes.baseAddress, !bytes.isEmpty { copy.copyMemory(from: base, byteCount: bytes.count) }
        return bind(copy, Int32(bytes.count), free)
    }
}
