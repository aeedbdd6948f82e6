import ExampleSupport
import Foundation
import KitTestSupport
import SellerContactsCommand
import Testing

/// `seller-contacts --cache PATH --policy …`: each value with its origin and age.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct CacheCommandTests {
    let cache: String
    let contacts: String

    init() throws {
        cache = try makeTemporaryDirectory().appendingPathComponent("cache.sqlite").path
        contacts = try fixtureURL("contacts").absoluteString
    }

    private func values(_ result: CommandResult) -> [String] {
        result.output.split(separator: "\n").filter { $0.hasPrefix("value:") || $0.hasPrefix("no cached") }.map {
            String($0)
        }
    }

    @Test func requireOnAnEmptyCacheSaysSoWithoutARequest() async throws {
        // NB: a source that fails when read: a request would show up as an error.
        let missing = "file:///nonexistent/contacts.json"
        let result = await runSellerContacts(["--url", missing, "--cache", cache, "--policy", "require"])
        #expect(result.status == 0)
        #expect(values(result) == ["no cached value"])
        #expect(result.errors.isEmpty)
    }

    @Test func aSecondRunIsServedFromDiskAndThenLoadPrintsBothValues() async throws {
        let first = await runSellerContacts(["--url", contacts, "--cache", cache])
        #expect(first.status == 0)
        #expect(values(first).map { $0.prefix(33) } == ["value: 3 contacts from remote, 0."])
        let second = await runSellerContacts(["--url", contacts, "--cache", cache, "--policy", "prefer"])
        #expect(values(second).count == 1)
        #expect(values(second).first?.hasPrefix("value: 3 contacts from disk, ") == true)
        let third = await runSellerContacts(["--url", contacts, "--cache", cache, "--policy", "then-load"])
        let lines = values(third)
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("value: 3 contacts from disk, ") == true)
        #expect(lines.first?.hasSuffix(", refreshing") == true)
        #expect(lines.last?.hasPrefix("value: 3 contacts from remote, ") == true)
        #expect(third.status == 0)
    }

    @Test func networkFirstFallsBackToTheCacheWhenTheFetchFails() async throws {
        let copy = try makeTemporaryDirectory().appendingPathComponent("contacts.json")
        try FileManager.default.copyItem(at: URL(string: contacts)!, to: copy)
        #expect(await runSellerContacts(["--url", copy.absoluteString, "--cache", cache]).status == 0)
        try FileManager.default.removeItem(at: copy)
        let result = await runSellerContacts([
            "--url", copy.absoluteString, "--cache", cache, "--policy", "network-first",
        ])
        #expect(result.status == 0)
        #expect(result.output.contains("error: the fetch failed; reading the cache"))
        #expect(values(result).first?.hasPrefix("value: 3 contacts from disk, ") == true)
        #expect(result.errors.contains("no file at \(copy.path)"))
    }

    @Test func badPolicyAndConflictingOptionsAreUsageErrors() async throws {
        #expect(await runSellerContacts(["--cache", cache, "--policy", "sometimes"]).status == 64)
        #expect(await runSellerContacts(["--policy", "require"]).status == 64)
        #expect(await runSellerContacts(["--cache", cache, "--database", cache]).status == 64)
    }
}
