#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// Writes refused to a file that was deleted, moved or replaced while this connection had it
/// open.
///
/// SQLite keeps writing to such a file through the connection that has it open (in WAL mode it
/// does not check): the writes succeed, reach this connection's readers, and are gone at the
/// next launch, which opens whatever is at the path now (a new, empty file after a deletion).
/// So every write transaction first asks SQLite whether the file is still the one at its path
/// (`SQLITE_FCNTL_HAS_MOVED`, one `stat` of the path) and fails when it is not: the caller is
/// told that nothing was written, instead of losing it later without a word. Reads go on
/// serving what the file held.
extension SQLiteDatabase {
    /// `SQLITE_READONLY_DBMOVED`: the code SQLite itself gives a write to a moved file in its
    /// rollback-journal mode.
    static let movedFileCode: Int32 = SQLITE_READONLY | (4 << 8)

    /// Throws when the file is no longer the one at ``path``; checked before a write
    /// transaction's first statement.
    ///
    /// - Throws: ``SQLiteError`` with `SQLITE_READONLY_DBMOVED`, naming the path.
    func refuseWritesIfFileMoved(operation: String) throws {
        guard path != ":memory:" else { return }
        var moved: Int32 = 0
        // NB: a VFS without the check answers `SQLITE_NOTFOUND`: the write goes on, as it did
        // before the check. (The unix VFS counts a path it cannot stat as moved.)
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK, moved != 0 else {
            return
        }
        throw SQLiteError(
            operation: operation, path: path, code: Self.movedFileCode,
            message: "the file was deleted, moved or replaced since it was opened: nothing was written, as it "
                + "would be gone at the next launch; open the file at the path again")
    }
}
