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

    @Test func aSecondRunIsServedFromDiskAndThenLoadRevalidates() async throws {
        let first = await runSellerContacts(["--url", contacts, "--cache", cache])
        #expect(first.status == 0)
        #expect(values(first).map { $0.prefix(33) } == ["value: 3 contacts from remote, 0."])
        let second = await runSellerContacts(["--url", contacts, "--cache", cache, "--policy", "prefer"])
        #expect(values(second).count == 1)
        #expect(values(second).first?.hasPrefix("value: 3 contacts from disk, ") == true)
        let third = await runSellerContacts(["--url", contacts, "--cache", cache, "--policy", "then-load"])
        let lines = values(third)
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("value: 3 contacts from disk, ") == true)
        #expect(lines.first?.hasSuffix(", refreshing") == true)
        // NB: a file has no ETag, so the fetch reads it whole and finds the same contacts.
        #expect(third.output.contains("not modified: the contacts above are current"))
        #expect(third.status == 0)
    }

    @Test func aSecondRunAgainstAnUnchangedServerGetsNotModifiedAndAChangeComesInFull() async throws {
        let root = try makeTemporaryDirectory()
        let file = root.appendingPathComponent("contacts.json")
        try FileManager.default.copyItem(at: URL(string: contacts)!, to: file)
        let server = try LocalHTTPServer.start(serving: root)
        defer { server.stop() }
        let url = server.url("fixtures/contacts.json").absoluteString
        #expect(await runSellerContacts(["--url", url, "--cache", cache]).status == 0)
        let second = await runSellerContacts(["--url", url, "--cache", cache, "--policy", "then-load"])
        #expect(second.status == 0)
        #expect(values(second).count == 1)
        #expect(second.output.contains("not modified: the contacts above are current"))
        let ignoring = await runSellerContacts(["--url", url, "--cache", cache, "--policy", "ignore"])
        #expect(values(ignoring).first?.hasSuffix(", not modified") == true, "\(ignoring.output)")
        try Data(#"[{"order": 1, "address": "New Street 1"}]"#.utf8).write(to: file)
        let changed = await runSellerContacts(["--url", url, "--cache", cache, "--policy", "then-load"])
        #expect(values(changed).last?.hasPrefix("value: 1 contact from remote") == true, "\(changed.output)")
        #expect(!changed.output.contains("not modified"))
    }

    @Test func retriesShowEachAttemptAndStopAtASuccess() async throws {
        let root = try makeTemporaryDirectory()
        try FileManager.default.copyItem(
            at: URL(string: contacts)!, to: root.appendingPathComponent("contacts.json"))
        let server = try LocalHTTPServer.start(serving: root)
        defer { server.stop() }
        let flaky = server.url("flaky/cli/2/503/contacts.json").absoluteString
        let result = await runSellerContacts(["--url", flaky, "--retries", "3"])
        #expect(result.status == 0)
        let retries = result.output.split(separator: "\n").filter { $0.hasPrefix("retry: ") }
        #expect(retries.count == 2, "\(result.output)")
        #expect(retries.first?.hasPrefix("retry: attempt 1 of 4 failed (HTTP 503 from \(flaky)") == true)
        #expect(result.output.contains("state: success (3 contacts)"))
        let missing = server.url("flaky/gone/9/404/contacts.json").absoluteString
        let notFound = await runSellerContacts(["--url", missing, "--retries", "3"])
        #expect(notFound.status == 1)
        #expect(!notFound.output.contains("retry: "), "a 404 is never retried")
        #expect(!notFound.errors.contains("attempts"))
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
