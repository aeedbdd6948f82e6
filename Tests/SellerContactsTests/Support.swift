import ContentLoadingSupport
import ExampleSupport
import Foundation
import KitTestSupport
import SellerContacts
import SellerContactsCommand
import Testing

/// The URL of fixture `name`.json, failing the test loudly when it is missing.
func fixtureURL(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
    try #require(
        Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures"),
        "fixture \(name).json is missing from the test bundle", sourceLocation: sourceLocation)
}

/// A URL store whose contacts come from one of the test fixtures.
struct TestSellerContactsURLStore: SellerContactsURLStore {
    let sellerContactsURL: URL

    init(fixture name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        sellerContactsURL = try fixtureURL(name, sourceLocation: sourceLocation)
    }
}

/// A directory of its own under the temporary directory.
func makeTemporaryDirectory() throws -> URL {
    try TestScratch.directory("contacts")
}

@MainActor
func loader(fixture name: String) throws -> SellerContactsLoader {
    SellerContactsLoader(apiManager: SellerContactsAPIManager(urlStore: try TestSellerContactsURLStore(fixture: name)))
}

/// What a command printed and returned.
struct CommandResult {
    let status: Int32
    let output: String
    let errors: String
}

/// Runs a command's `main` with a console that captures what it writes.
@MainActor
func runCommand(_ main: (Console) async -> Int32) async -> CommandResult {
    let output = Locked("")
    let errors = Locked("")
    let console = Console(
        write: { text in output.withLock { $0 += text } },
        writeError: { text in errors.withLock { $0 += text } },
        isTerminal: false)
    let status = await main(console)
    return CommandResult(status: status, output: output.withLock { $0 }, errors: errors.withLock { $0 })
}

/// Runs the `seller-contacts` logic with `arguments` and a captured console.
@MainActor
func runSellerContacts(_ arguments: [String]) async -> CommandResult {
    await runCommand { await SellerContactsCommand.main(arguments: arguments, console: $0) }
}
