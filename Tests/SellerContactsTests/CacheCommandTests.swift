import ContentLoadingRepository
import ExampleSupport
import Foundation
import KitTestSupport
import SellerContactsCommand
import Testing

/// `seller-contacts --cache PATH --policy …`: each value with its origin and age.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
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

    /// Another process holds the cache file's write lock past the busy timeout (5 s).
    @Test func aCacheFileThatCannotBeWrittenIsReportedAndTheExitSaysNothingWasShown() async throws {
        #expect(await runSellerContacts(["--url", contacts, "--cache", cache, "--policy", "require"]).status == 0)
        let holder = try ChildProcess.holdingSQLiteWriteLock(on: cache)
        defer { holder.stop() }
        let result = await runSellerContacts(["--url", contacts, "--cache", cache, "--policy", "ignore"])
        #expect(result.status == 1)
        #expect(result.errors.contains(cache), "\(result.errors)")
        #expect(result.errors.contains("locked"), "\(result.errors)")
        #expect(values(result).isEmpty, "a value the cache could not store is not shown")
    }

    @Test func aFullDiskTierIsAnErrorAndNothingUnstoredIsShown() async throws {
        // NB: a value larger than the cache's limit cannot be stored (the kit refuses it).
        let big = try makeTemporaryDirectory().appendingPathComponent("big.json")
        let many = (0..<2_000).map { #"{"order": \#($0), "address": "\#(String(repeating: "x", count: 40_000))"}"# }
        try Data(("[" + many.joined(separator: ",") + "]").utf8).write(to: big)
        let result = await runSellerContacts(["--url", big.absoluteString, "--cache", cache, "--policy", "ignore"])
        #expect(result.status == 1)
        #expect(result.errors.contains("limit"), "\(result.errors)")
        #expect(values(result).isEmpty)
    }

    @Test func anUndecodableEntryIsReportedAndThePreferReadFetchesAndShows() async throws {
        #expect(await runSellerContacts(["--url", contacts, "--cache", cache]).status == 0)
        try SQLiteDatabase(.file(path: cache)).execute("UPDATE content_loading_cache_values SET value = X'7B7D'")
        let result = await runSellerContacts(["--url", contacts, "--cache", cache, "--policy", "prefer"])
        #expect(result.status == 0, "the fetch it started succeeded: \(result.errors)")
        #expect(result.errors.contains("decode"))
        #expect(values(result).count == 1)
        #expect(values(result).first?.hasPrefix("value: 3 contacts from remote, ") == true, "the age is not checked")
    }

    @Test func aCredentialInTheSourceURLNeverReachesTheCacheFileOrAMessage() async throws {
        let root = try makeTemporaryDirectory()
        try FileManager.default.copyItem(at: URL(string: contacts)!, to: root.appendingPathComponent("contacts.json"))
        let server = try LocalHTTPServer.start(serving: root)
        defer { server.stop() }
        var components = URLComponents(url: server.url("fixtures/contacts.json"), resolvingAgainstBaseURL: false)!
        (components.user, components.password) = ("alice", "s3cr3t")
        components.query = "pwd=pa55&page=1"
        components.fragment = "access_token=t0ken"
        let url = components.url!.absoluteString
        let first = await runSellerContacts(["--url", url, "--cache", cache])
        #expect(first.status == 0, "\(first.errors)")
        // NB: an entry that cannot be decoded makes the command name its key.
        try SQLiteDatabase(.file(path: cache)).execute("UPDATE content_loading_cache_values SET value = X'7B7D'")
        let second = await runSellerContacts(["--url", url, "--cache", cache, "--policy", "prefer"])
        let printed = first.output + first.errors + second.output + second.errors
        #expect(second.errors.contains("decode"), "the key is named: \(second.errors)")
        let file = try Data(contentsOf: URL(fileURLWithPath: cache))
        let wal = (try? Data(contentsOf: URL(fileURLWithPath: cache + "-wal"))) ?? Data()
        for secret in ["s3cr3t", "pa55", "t0ken", "alice"] {
            #expect(!printed.contains(secret), "\(secret) printed")
            #expect(
                file.range(of: Data(secret.utf8)) == nil && wal.range(of: Data(secret.utf8)) == nil, "\(secret) stored")
        }
    }

    @Test func aSecondRunIsServedFromDiskAndThenLoadRevalidates() async throws {
        let first = await runSellerContacts(["--url", contacts, "--cache", cache])
        #expect(first.status == 0)
        // NB: the age is not checked: under a loaded machine (ASan, tests side by side) a second
        // can pass between the fetch's write and the line.
        #expect(values(first).count == 1)
        #expect(values(first).first?.hasPrefix("value: 3 contacts from remote, ") == true)
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

    /// `--max-age`: cached contacts young enough are shown with no request; older ones are
    /// fetched, and when the fetch fails they are not shown in its place.
    @Test func maxAgeShowsYoungEnoughContactsAndFetchesOlderOnes() async throws {
        let copy = try makeTemporaryDirectory().appendingPathComponent("contacts.json")
        try FileManager.default.copyItem(at: URL(string: contacts)!, to: copy)
        let url = copy.absoluteString
        #expect(await runSellerContacts(["--url", url, "--cache", cache]).status == 0)
        let young = await runSellerContacts(["--url", url, "--cache", cache, "--max-age", "3600"])
        #expect(young.status == 0)
        #expect(values(young).count == 1)
        #expect(values(young).first?.hasPrefix("value: 3 contacts from disk, ") == true)
        // NB: the command runs in this process: the stored contacts are made older than the
        // 1 ms maximum age by waiting past it (here and below: the age is what is tested, not
        // an order of events).
        try await Task.sleep(for: .milliseconds(2))
        let old = await runSellerContacts(["--url", url, "--cache", cache, "--max-age", "0.001"])
        #expect(old.status == 0)
        #expect(values(old).count == 1)
        #expect(values(old).first?.hasPrefix("value: 3 contacts from remote, ") == true)
        try FileManager.default.removeItem(at: copy)
        try await Task.sleep(for: .milliseconds(2))
        let failed = await runSellerContacts(["--url", url, "--cache", cache, "--max-age", "0.001"])
        #expect(failed.status == 1)
        #expect(values(failed).isEmpty, "the older contacts are not shown")
        #expect(failed.output.contains("error: no contacts younger than 1.0 ms to show"))
        #expect(failed.errors.contains("no file at \(copy.path)"))
    }

    @Test func badPolicyAndConflictingOptionsAreUsageErrors() async throws {
        #expect(await runSellerContacts(["--cache", cache, "--policy", "sometimes"]).status == 64)
        #expect(await runSellerContacts(["--policy", "require"]).status == 64)
        #expect(await runSellerContacts(["--cache", cache, "--database", cache]).status == 64)
        #expect(await runSellerContacts(["--max-age", "60"]).status == 64)
        #expect(await runSellerContacts(["--cache", cache, "--max-age", "60", "--policy", "require"]).status == 64)
        #expect(await runSellerContacts(["--cache", cache, "--max-age", "soon"]).status == 64)
    }
}
