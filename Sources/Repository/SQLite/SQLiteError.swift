/// A failure of the SQLite store, naming the database file and what SQLite said.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was being done, e.g. "open", "migrate to version 2", "write".
    public let operation: String
    /// The database file's path, or `:memory:`.
    public let path: String
    /// SQLite's result code.
    public let code: Int32
    /// SQLite's message.
    public let message: String

    /// Creates an error.
    public init(operation: String, path: String, code: Int32, message: String) {
        self.operation = operation
        self.path = path
        self.code = code
        self.message = message
    }

    /// "cannot open database /path/contacts.sqlite: file is not a database (SQLite error 26)".
    public var description: String {
        "cannot \(operation) database \(path): \(message) (SQLite error \(code))"
    }
}
