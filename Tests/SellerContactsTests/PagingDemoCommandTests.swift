import ExampleSupport
import KitTestSupport
import PagingDemoCommand
import Testing

@MainActor
private func run(_ arguments: [String]) async -> CommandResult {
    await runCommand { await PagingDemoCommand.main(arguments: arguments, console: $0) }
}

@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct PagingDemoCommandTests {
    @Test func pagesThroughTheWholeCatalog() async throws {
        let result = await run([])
        #expect(result.status == 0)
        #expect(result.output.split(separator: "\n").filter { $0.contains("arrived") }.count == 13)
        #expect(result.output.hasSuffix("page 13 arrived: 20 items, 320 loaded\nend reached: 320 items in 13 pages\n"))
    }

    @Test func failedPageIsRetriedWithEarlierPagesKept() async throws {
        let result = await run(["--fail-page", "3"])
        #expect(result.status == 0)
        #expect(
            result.output.contains(
                """
                page 2 arrived: 25 items, 50 loaded
                page 3 failed: page 3 failed on purpose (--fail-page 3); keeping 50 items, retrying
                page 3 arrived: 25 items, 75 loaded
                """))
        #expect(result.output.hasSuffix("end reached: 320 items in 13 pages\n"))
    }

    @Test func aWindowDropsPagesGoingForwardAndLoadsThemAgainGoingBack() async throws {
        let result = await run(["--window", "3"])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("page 4 arrived: holding items 26–100 (75), 25 dropped before"))
        #expect(lines.contains("end reached after 13 pages: holding items 251–320 (70), 250 dropped before"))
        #expect(lines.filter { $0.hasPrefix("previous page loaded again") }.count == 10)
        #expect(lines.last == "start reached: holding items 1–75 (75), 0 dropped before")
    }

    @Test func badArgumentsAreUsageErrors() async throws {
        #expect(await run(["--fail-page", "zero"]).status == 64)
        #expect(await run(["--nope"]).status == 64)
        #expect(await run(["--window", "0"]).status == 64)
        #expect(await run(["--help"]).output.contains("--fail-page N"))
    }
}
