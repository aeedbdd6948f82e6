import Foundation
import KitTestSupport
import ExampleSupport
import SellerContactsCommand
import Testing

/// Runs the `seller-contacts` logic with a captured console.
@MainActor
private func run(_ arguments: [String]) async -> CommandResult {
    await runCommand { await SellerContactsCommand.main(arguments: arguments, console: $0) }
}

@MainActor
@Suite(.timeLimit(.minutes(1)))
struct SellerContactsCommandTests {
    @Test func bundledDefaultPrintsTransitionsAndATable() async {
        let result = await run([])
        #expect(result.status == 0)
        #expect(result.output.contains("state: loading\nstate: success (4 contacts)"))
        #expect(result.output.contains("order  phone"))
        #expect(result.errors.isEmpty)
    }

    @Test func fixtureSuccessPrintsRowsSortedByOrder() async throws {
        let result = await run(["--url", try fixtureURL("contacts").absoluteString])
        #expect(result.status == 0)
        let rows = result.output.split(separator: "\n").filter { $0.hasPrefix("1 ") || $0.hasPrefix("2 ") || $0.hasPrefix("3 ") }
        #expect(rows.map { $0.prefix(1) } == ["1", "2", "3"])
        #expect(result.output.contains("3      —"))
    }

    @Test func emptyExitsZero() async throws {
        let result = await run(["--url", try fixtureURL("empty").absoluteString])
        #expect(result.status == 0)
        #expect(result.output.contains("state: empty"))
    }

    @Test func malformedExitsNonZeroNamingTheFile() async throws {
        let url = try fixtureURL("malformed")
        let result = await run(["--url", url.absoluteString])
        #expect(result.status == 1)
        #expect(result.errors.contains("malformed JSON at \(url.absoluteString)"))
    }

    @Test func wrongTypesExitNonZeroWithTheJSONPath() async throws {
        let result = await run(["--url", try fixtureURL("wrong-types").absoluteString])
        #expect(result.status == 1)
        #expect(result.errors.contains("$[1].phone"))
    }

    @Test func http404NamesTheStatusAndURL() async throws {
        let server = try LocalHTTPServer.start()
        defer { server.stop() }
        let url = server.url("status/404")
        let result = await run(["--url", url.absoluteString])
        #expect(result.status == 1)
        #expect(result.errors.contains("HTTP 404 from \(url.absoluteString)"))
    }

    @Test func helpAndBadArguments() async {
        let help = await run(["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("--url URL"))
        let bad = await run(["--frobnicate"])
        #expect(bad.status == 64)
        #expect(bad.errors.contains("unknown argument '--frobnicate'"))
        let missing = await run(["--url"])
        #expect(missing.status == 64)
        #expect(missing.errors.contains("--url needs a value"))
    }
}
