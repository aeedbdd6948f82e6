import ContentLoadingRepository
import Foundation
import Testing

/// A connection hands out a statement of the same SQL again once its wrapper is gone: reset,
/// its bindings cleared; a statement still in use is never handed out twice.
@Suite struct StatementReuseTests {
    let database: SQLiteDatabase

    init() throws {
        database = try SQLiteDatabase(.file(path: try temporaryDatabasePath()))
        try database.execute("CREATE TABLE numbers (n INTEGER); INSERT INTO numbers VALUES (1), (2), (3)")
    }

    static let select = "SELECT n FROM numbers WHERE ?1 IS NULL OR n >= ?1 ORDER BY n"

    func all(_ statement: SQLiteStatement) throws -> [Int] {
        var numbers: [Int] = []
        while try statement.step() { numbers.append(statement.int(at: 0)) }
        return numbers
    }

    @Test func twoStatementsOfOneSQLInUseAtOnceStepApart() throws {
        let outer = try database.prepare(Self.select)
        #expect(try outer.step() && outer.int(at: 0) == 1)
        let inner = try database.prepare(Self.select)
        try inner.bind(3, at: 1)
        #expect(try all(inner) == [3])
        #expect(try all(outer) == [2, 3], "the outer one goes on where it was")
    }

    @Test func aReusedStatementStartsOverWithNoBindings() throws {
        do {
            let first = try database.prepare(Self.select)
            try first.bind(2, at: 1)
            #expect(try first.step() && first.int(at: 0) == 2, "left in the middle, bound")
        }
        let again = try database.prepare(Self.select)
        #expect(try all(again) == [1, 2, 3], "from the start, the parameter NULL")
    }

    @Test func statementsOutliveAClose() throws {
        do { _ = try database.prepare(Self.select) }
        let alive = try database.prepare(Self.select)
        database.close()
        #expect(throws: SQLiteError.self) { try database.prepare(Self.select) }
        _ = alive
    }
}
