import ContentLoadingRepository
import ExampleSupport
import Foundation
import KitTestSupport
import PagingDemoCommand
import Testing

/// `paging-demo --database` against the fixture server's catalog (a real process on
/// 127.0.0.1): the pages and their items kept in the file, shown offline with an edit, and
/// paging on from the stored cursor without loading the stored pages again.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct PersistedPagingDemoTests {
    func run(_ arguments: [String]) async -> CommandResult {
        await runCommand { await PagingDemoCommand.main(arguments: arguments, console: $0) }
    }

    func requests(_ result: CommandResult) -> [String] {
        result.output.split(separator: "\n").filter { $0.hasPrefix("GET ") }.map {
            String($0.split(separator: "?").last ?? "")
        }
    }

    @Test func anEditShowsOfflineAndPagingGoesOnFromTheStoredCursor() async throws {
        let server = try LocalHTTPServer.start()
        defer { server.stop() }
        let database = try makeTemporaryDirectory().appendingPathComponent("catalog.sqlite").path
        let url = server.url("catalog").absoluteString

        let first = await run(["--database", database, "--url", url, "--pages", "2"])
        #expect(first.status == 0, "\(first.errors)")
        #expect(requests(first) == ["limit=10: fetched", "cursor=10&limit=10: fetched"])
        #expect(first.output.contains("page 2: holding items 1–20\n"))

        let offline = await run(["--database", database, "--offline", "--edit", "5", "--title", "Edited"])
        #expect(offline.status == 0, "\(offline.errors)")
        #expect(requests(offline).isEmpty, "no request")
        #expect(offline.output.contains("page 2: holding items 1–20\n"), "both stored pages")
        #expect(offline.output.contains("\n  5 Edited\n"), "the edited title")

        let online = await run(["--database", database, "--url", url, "--pages", "3"])
        #expect(online.status == 0, "\(online.errors)")
        #expect(
            requests(online) == ["limit=10: not modified", "cursor=20&limit=10: fetched"],
            "the first page revalidated, the second from the file, the third from the stored cursor")
        #expect(online.output.contains("\n  5 Edited\n"), "the edit stays: the first page was not modified")
        #expect(online.output.contains("page 3: holding items 1–30\n"))
    }

    /// Cursors as servers make them (base64 holds "+", "/" and "="), sent as they were given:
    /// a "+" left as it is reaches the server as a space.
    @Test func opaqueCursorsGoToTheServerAsTheyCame() async throws {
        let server = try LocalHTTPServer.start()
        defer { server.stop() }
        let database = try makeTemporaryDirectory().appendingPathComponent("opaque.sqlite").path
        let url = server.url("catalog?opaque=1").absoluteString

        let result = await run(["--database", database, "--url", url, "--pages", "3"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(
            requests(result) == [
                "opaque=1&limit=10: fetched", "opaque=1&cursor=at%2B10%2F%3D&limit=10: fetched",
                "opaque=1&cursor=at%2B20%2F%3D&limit=10: fetched",
            ])
        #expect(result.output.contains("page 3: holding items 1–30\n"))
    }

    @Test func storedPagesOlderThanTheMaxAgeAreAskedForAgainWithTheirETags() async throws {
        let server = try LocalHTTPServer.start()
        defer { server.stop() }
        let database = try makeTemporaryDirectory().appendingPathComponent("catalog.sqlite").path
        let url = server.url("catalog").absoluteString
        _ = await run(["--database", database, "--url", url, "--pages", "2"])

        let young = await run(["--database", database, "--url", url, "--pages", "2", "--max-age", "3600"])
        #expect(young.status == 0, "\(young.errors)")
        #expect(requests(young) == ["limit=10: not modified"], "the second page, seconds old, from the file")

        let old = await run(["--database", database, "--url", url, "--pages", "2", "--max-age", "0"])
        #expect(old.status == 0, "\(old.errors)")
        #expect(
            requests(old) == ["limit=10: not modified", "cursor=10&limit=10: not modified"],
            "the second page asked for again, with its ETag")
        #expect(old.output.contains("page 2: holding items 1–20\n"))
    }

    /// With the server gone, a run shows the stored pages and says that the page after them
    /// failed (not that the list ended), and exits 0: it showed the list.
    @Test func aFailedPageAfterTheStoredOnesIsReportedAsAFailureNotAsTheEnd() async throws {
        let server = try LocalHTTPServer.start()
        let database = try makeTemporaryDirectory().appendingPathComponent("catalog.sqlite").path
        let url = server.url("catalog").absoluteString
        _ = await run(["--database", database, "--url", url, "--pages", "2"])
        server.stop()

        let result = await run(["--database", database, "--url", url, "--pages", "3"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("showing the stored pages: "), "\(result.output)")
        #expect(result.output.contains("page 2: holding items 1–20\n"), "\(result.output)")
        #expect(result.output.contains("the next page failed: "), "\(result.output)")
        #expect(result.output.contains(url), "the error names the URL: \(result.output)")
        #expect(!result.output.contains("no more pages"), "\(result.output)")

        let offline = await run(["--database", database, "--offline", "--pages", "3"])
        #expect(offline.output.contains("no more pages: offline"), "\(offline.output)")
    }

    /// What comes from outside is printed as one line of plain text: a title from the server
    /// with an escape sequence and a line break, and SQLite's message naming a damaged file's
    /// schema, which held an escape character.
    @Test func textFromTheServerAndTheFileCannotForgeALineOrDriveTheTerminal() async throws {
        let folder = try makeTemporaryDirectory()
        try Data(#"{"items": [{"id": 1, "title": "A\u001b[31mB\nforged"}], "next": null}"#.utf8)
            .write(to: folder.appendingPathComponent("hostile.json"))
        let server = try LocalHTTPServer.start(serving: folder)
        defer { server.stop() }
        let database = folder.appendingPathComponent("catalog.sqlite").path

        let result = await run(["--database", database, "--url", server.url("fixtures/hostile.json").absoluteString])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("  1 A\\u{1B}[31mB\\nforged\n"), "\(result.output)")
        #expect(!result.output.unicodeScalars.contains { $0.value == 0x1B }, "no escape character")
        #expect(!result.output.contains("\nforged"), "no forged line")

        // NB: an escape character in a table's name in the file's schema, which SQLite's
        // message quotes.
        try SQLiteDatabase(.file(path: database)).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: database))
        let name = try #require(bytes.range(of: Data("content_loading_list_members".utf8)))
        bytes[name.lowerBound + 3] = 0x1B
        try bytes.write(to: URL(fileURLWithPath: database))
        let damaged = await run(["--database", database, "--offline"])
        #expect(damaged.status == 1)
        #expect(damaged.errors.hasPrefix("paging-demo: "), "\(damaged.errors)")
        #expect(damaged.errors.contains(database), "\(damaged.errors)")
        #expect(!damaged.errors.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(damaged.errors)")
    }

    @Test func optionsOfThePersistedModeNeedADatabase() async throws {
        let result = await run(["--offline"])
        #expect(result.status == 64)
        #expect(result.errors == "paging-demo: --url, --pages, --max-age, --offline and --edit need --database PATH\n")
        let maxAge = await run(["--max-age", "60"])
        #expect(maxAge.status == 64)
        let negative = await run(["--database", "x.sqlite", "--max-age", "-1"])
        #expect(negative.status == 64)
        #expect(negative.errors == "paging-demo: --max-age needs a number of seconds, 0 or more\n")
        let edit = await run(["--database", "x.sqlite", "--edit", "5"])
        #expect(edit.status == 64)
        #expect(edit.errors == "paging-demo: --edit ID and --title TEXT go together\n")
    }

    @Test func anOfflineRunWithNothingStoredIsOneClearError() async throws {
        let database = try makeTemporaryDirectory().appendingPathComponent("empty.sqlite").path
        let result = await run(["--database", database, "--offline"])
        #expect(result.status == 1)
        #expect(result.errors.hasPrefix("paging-demo: the first page failed: offline"))
    }
}
