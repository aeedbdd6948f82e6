extension SQLiteDatabase {
    /// The oldest SQLite the kit's statements run on (`RETURNING` came in 3.35.0), as
    /// `sqlite3_libversion_number()` gives it.
    static let minimumLibraryVersion = (number: 3_035_000, text: "3.35.0")

    /// Why the SQLite library of version `number` (`version` in text) cannot serve the kit;
    /// `nil` when it can.
    static func versionProblem(number: Int, version: String) -> String? {
        guard number < minimumLibraryVersion.number else { return nil }
        return "the system SQLite library is version \(version); the kit needs \(minimumLibraryVersion.text) or "
            + "later (for RETURNING): install a newer libsqlite3"
    }
}
