/// What this connection keeps in memory of the file (its byte total, the elements with pending
/// mutations) holds while the file's mark stays the same.
extension DiskCache {
    /// The file as this connection last knew it: its `data_version`, which changes when another
    /// connection commits a write, and this connection's rollback count (a rolled-back
    /// transaction's changes to what it kept did not happen in the file).
    struct FileMark: Equatable, Sendable {
        let dataVersion: Int
        let rollbacks: Int
    }

    /// The file's mark now (see ``FileMark``).
    func fileMark() throws -> FileMark { try Self.fileMark(of: database) }

    /// The mark of the file `database` is open on (see ``FileMark``).
    static func fileMark(of database: SQLiteDatabase) throws -> FileMark {
        let pragma = try database.prepare("PRAGMA data_version", operation: "read the cache in")
        return FileMark(dataVersion: try pragma.step() ? pragma.int(at: 0) : 0, rollbacks: database.rollbacks)
    }
}
