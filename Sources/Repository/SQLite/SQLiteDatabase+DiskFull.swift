import Foundation

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

extension SQLiteDatabase {
    /// Below this many free bytes on the file's volume, an I/O failure is a full disk.
    static let nearlyFullBytes: Int64 = 1 << 20

    /// SQLite's `message` for `code` on the file at `path`, said plainly when the disk is full:
    /// SQLite reports a full disk as "disk I/O error" (for the WAL index) or "database or disk is
    /// full", which does not say which; the volume's free space does.
    static func explained(_ message: String, code: Int32, path: String) -> String {
        let primary = code & 0xFF
        guard primary == SQLITE_IOERR || primary == SQLITE_FULL, path != ":memory:", let free = freeBytes(near: path),
            free < nearlyFullBytes
        else { return message }
        return "the disk is full (\(free) bytes free on the volume holding the file; SQLite said: \(message))"
    }

    /// The bytes free on the volume that holds `path` (or would, for a file not made yet);
    /// `nil` for a volume of no size, such as `/proc` (no disk to be full: its files are not
    /// databases).
    private static func freeBytes(near path: String) -> Int64? {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let attributes = try? FileManager.default.attributesOfFileSystem(forPath: directory)
        guard let size = (attributes?[.systemSize] as? NSNumber)?.int64Value, size > 0 else { return nil }
        return (attributes?[.systemFreeSize] as? NSNumber)?.int64Value
    }
}
