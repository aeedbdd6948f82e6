import Testing

@testable import ContentLoadingRepository

/// A system SQLite older than the kit's statements need (Amazon Linux 2 ships 3.7.17, Ubuntu
/// 20.04 3.31.1) is refused when a database is opened, with a message naming both versions,
/// rather than failing each write with "near RETURNING: syntax error".
struct SQLiteLibraryVersionTests {
    @Test func aLibraryOlderThan3_35IsAProblemNamingBothVersions() throws {
        let problem = try #require(SQLiteDatabase.versionProblem(number: 3_031_001, version: "3.31.1"))
        #expect(problem.contains("the system SQLite library is version 3.31.1; the kit needs 3.35.0 or later"))
        #expect(SQLiteDatabase.versionProblem(number: 3_034_999, version: "3.34.99") != nil)
    }

    @Test func aLibraryOf3_35OrLaterIsNone() throws {
        #expect(SQLiteDatabase.versionProblem(number: 3_035_000, version: "3.35.0") == nil)
        #expect(SQLiteDatabase.versionProblem(number: 3_046_001, version: "3.46.1") == nil)
        _ = try SQLiteDatabase(.inMemory)  // this machine's library opens
    }
}
