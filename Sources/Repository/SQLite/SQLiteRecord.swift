/// How a type is stored in a table of a ``SQLiteStore``.
///
/// ```swift
/// extension Contact: SQLiteRecord {
///     static let tableName = "contacts"
///     static let migrations = ["CREATE TABLE contacts (id INTEGER PRIMARY KEY, name TEXT)"]
///     static let columns = ["id", "name"]
///     static let orderBy = "id"
///     func bind(to statement: SQLiteStatement) throws {
///         try statement.bind(id, at: 1)
///         try statement.bind(name, at: 2)
///     }
///     init(row: SQLiteStatement) throws { self.init(id: row.int(at: 0), name: row.text(at: 1)) }
///     static func bind(id: Int, to statement: SQLiteStatement, at index: Int32) throws {
///         try statement.bind(id, at: index)
///     }
/// }
/// ```
public protocol SQLiteRecord: Sendable, Identifiable, Equatable where ID: Sendable {
    /// The table the records live in.
    static var tableName: String { get }
    /// The schema changes, oldest first; the store applies those the database has not had.
    /// Never edit a published one: append a new one.
    static var migrations: [String] { get }
    /// The stored columns, in the order ``bind(to:)`` binds them; the first is the primary key.
    static var columns: [String] { get }
    /// The `ORDER BY` clause that gives the store's order, e.g. `"position, id"`.
    static var orderBy: String { get }

    /// Binds this record's columns, in ``columns`` order, to parameters 1, 2, ….
    func bind(to statement: SQLiteStatement) throws
    /// Reads a record from the current row, whose columns are ``columns`` in order.
    init(row: SQLiteStatement) throws
    /// Binds a primary key value to parameter `index`.
    static func bind(id: ID, to statement: SQLiteStatement, at index: Int32) throws
}
