import ContentLoadingRepository
import ExampleSupport
import Foundation
import KitTestSupport
import SellerContacts
import SellerContactsCommand
import Testing

@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct SellerContactsCommandTests {
    @Test func bundledDefaultPrintsTransitionsAndATable() async throws {
        let result = await runSellerContacts([])
        #expect(result.status == 0)
        #expect(result.output.contains("state: loading\nstate: success (4 contacts)"))
        #expect(result.output.contains("order  phone"))
        #expect(result.errors.isEmpty)
    }

    @Test func fixtureSuccessPrintsRowsSortedByOrder() async throws {
        let result = await runSellerContacts(["--url", try fixtureURL("contacts").absoluteString])
        #expect(result.status == 0)
        let rows = result.output.split(separator: "\n").filter {
            $0.hasPrefix("1 ") || $0.hasPrefix("2 ") || $0.hasPrefix("3 ")
        }
        #expect(rows.map { $0.prefix(1) } == ["1", "2", "3"])
        #expect(result.output.contains("3      —"))
    }

    @Test func emptyExitsZero() async throws {
        let result = await runSellerContacts(["--url", try fixtureURL("empty").absoluteString])
        #expect(result.status == 0)
        #expect(result.output.contains("state: empty"))
    }

    @Test func malformedExitsNonZeroNamingTheFile() async throws {
        let url = try fixtureURL("malformed")
        let result = await runSellerContacts(["--url", url.absoluteString])
        #expect(result.status == 1)
        #expect(result.errors.contains("malformed JSON at \(url.absoluteString)"))
    }

    @Test func wrongTypesExitNonZeroWithTheJSONPath() async throws {
        let result = await runSellerContacts(["--url", try fixtureURL("wrong-types").absoluteString])
        #expect(result.status == 1)
        #expect(result.errors.contains("$[1].phone"))
    }

    @Test func http404NamesTheStatusAndURL() async throws {
        let server = try LocalHTTPServer.start()
        defer { server.stop() }
        let url = server.url("status/404")
        let result = await runSellerContacts(["--url", url.absoluteString])
        #expect(result.status == 1)
        #expect(result.errors.contains("HTTP 404 from \(url.absoluteString)"))
    }

    @Test func helpAndBadArguments() async throws {
        let help = await runSellerContacts(["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("--url URL"))
        let bad = await runSellerContacts(["--frobnicate"])
        #expect(bad.status == 64)
        #expect(bad.errors.contains("unknown argument '--frobnicate'"))
        let missing = await runSellerContacts(["--url"])
        #expect(missing.status == 64)
        #expect(missing.errors.contains("--url needs a value"))
    }
}

/// `seller-contacts --database`: the offline-first flow over SQLite.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct SellerContactsDatabaseCommandTests {
    let database: String

    init() throws {
        database = try makeTemporaryDirectory().appendingPathComponent("contacts.sqlite").path
    }

    @Test func firstRunSyncsThenAFailingURLStillShowsTheStoredContacts() async throws {
        let first = await runSellerContacts([
            "--url", try fixtureURL("contacts").absoluteString, "--database", database,
        ])
        #expect(first.status == 0)
        #expect(first.output.contains("state: empty (the database has no contacts)"))
        #expect(first.output.contains("sync: updated the database\nstate: success (3 contacts from the database)"))

        let server = try LocalHTTPServer.start()
        defer { server.stop() }
        let failing = server.url("status/500")
        let second = await runSellerContacts(["--url", failing.absoluteString, "--database", database])
        #expect(second.status == 0, "contacts were shown from the store")
        #expect(second.output.contains("state: success (3 contacts from the database)"))
        #expect(second.output.contains("sync: failed; still showing 3 stored contacts"))
        #expect(second.errors.contains("HTTP 500 from \(failing.absoluteString)"))
    }

    @Test func offlineShowsTheStoredContactsWithoutSyncing() async throws {
        _ = await runSellerContacts(["--url", try fixtureURL("contacts").absoluteString, "--database", database])
        let offline = await runSellerContacts([
            "--url", "http://127.0.0.1:9/never-contacted", "--database", database, "--offline",
        ])
        #expect(offline.status == 0)
        #expect(offline.output.contains("3 contacts from the database"))
        #expect(offline.output.contains("sync: skipped (--offline)"))
        #expect(offline.errors.isEmpty)
    }

    @Test func offlineWithNothingStoredFails() async throws {
        let result = await runSellerContacts(["--database", database, "--offline"])
        #expect(result.status == 1)
        #expect(result.errors.contains("nothing is stored in \(database) yet"))
    }

    @Test func unchangedRemoteIsReportedUpToDate() async throws {
        let url = try fixtureURL("contacts").absoluteString
        _ = await runSellerContacts(["--url", url, "--database", database])
        let again = await runSellerContacts(["--url", url, "--database", database])
        #expect(again.output.contains("sync: the database is up to date"))
    }

    @Test func corruptDatabaseIsAClearErrorNamingThePath() async throws {
        try Data(repeating: 0x42, count: 4_096).write(to: URL(fileURLWithPath: database))
        let result = await runSellerContacts(["--database", database])
        #expect(result.status == 1)
        #expect(result.errors.contains(database))
        #expect(result.errors.contains("not a database"))
    }

    @Test func offlineNeedsADatabase() async throws {
        let result = await runSellerContacts(["--offline"])
        #expect(result.status == 64)
        #expect(result.errors.contains("--offline needs --database PATH"))
    }
}

/// The offline-first flow never waits for a store emission that a sync may not produce.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct SellerContactsDatabaseSyncTests {
    /// Another connection (as another process would) writes between this connection's first
    /// read and its sync, so the sync writes back the very list its observers last saw: the
    /// store is updated, no observer emits, and the command must still finish.
    @Test func aSyncThatChangesNothingObservedStillFinishes() async throws {
        let path = try makeTemporaryDirectory().appendingPathComponent("contacts.sqlite").path
        let mine = (1...3).map { SellerContacts(address: "Mine \($0)", order: $0, phone: nil) }
        let theirs = (1...2).map { SellerContacts(address: "Theirs \($0)", order: $0, phone: nil) }
        try await SQLiteStore<SellerContacts>(.file(path: path)).replaceAll(with: mine, syncedAt: nil)
        let otherProcess = try SQLiteStore<SellerContacts>(.file(path: path))
        let store = try SQLiteStore<SellerContacts>(.file(path: path))
        let repository = Repository(
            synchronizer: Synchronizer(store: store) {
                try await otherProcess.replaceAll(with: theirs, syncedAt: nil)
                return mine
            })
        let result = await runCommand { console in
            await SellerContactsCommand.runOfflineFirst(
                repository: repository, database: path, offline: false, console: console)
        }
        #expect(result.status == 0)
        #expect(result.output.contains("sync: updated the database\nstate: success (3 contacts from the database)"))
    }

    @Test func aListWithRepeatedIDsIsRejectedAndTheStoredContactsStay() async throws {
        let path = try makeTemporaryDirectory().appendingPathComponent("contacts.sqlite").path
        _ = await runSellerContacts(["--url", try fixtureURL("contacts").absoluteString, "--database", path])
        let url = try fixtureURL("duplicate-orders")
        let result = await runSellerContacts(["--url", url.absoluteString, "--database", path])
        #expect(result.status == 0, "the stored contacts were shown")
        #expect(result.output.contains("sync: failed; still showing 3 stored contacts"))
        #expect(result.errors.contains("$[2].order"))
        let again = await runSellerContacts(["--url", url.absoluteString])
        #expect(again.status == 1, "the plain loader follows the same rule")
        #expect(again.errors.contains("order 2 is also at $[1]"))
    }
}

/// What came from outside (a URL's credentials, a server's text, contact fields) reaches the
/// terminal safely.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct SellerContactsCommandOutputTests {
    @Test func credentialsInTheURLAreNeverPrinted() async throws {
        let server = try LocalHTTPServer.start()
        defer { server.stop() }
        let port = try #require(server.baseURL.port)
        let url = "http://alice:s3cr3t@127.0.0.1:\(port)/status/500?api_key=k3y&page=1"
        let result = await runSellerContacts(["--url", url])
        #expect(result.status == 1)
        #expect(result.output.contains("source: http://127.0.0.1:\(port)/status/500?api_key=***&page=1"))
        for text in [result.output, result.errors] {
            #expect(!text.contains("s3cr3t"))
            #expect(!text.contains("alice"))
            #expect(!text.contains("k3y"))
        }
    }

    @Test func aHostileBodyCannotForgeALineOrSendEscapeCodes() async throws {
        let server = try LocalHTTPServer.start()
        defer { server.stop() }
        let result = await runSellerContacts(["--url", server.url("hostile").absoluteString])
        #expect(result.status == 1)
        let lines = result.errors.split(separator: "\n")
        #expect(lines.count == 1, "one error line: \(lines)")
        #expect(!result.errors.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }

    @Test func contactFieldsPrintEscaped() async throws {
        let file = try makeTemporaryDirectory().appendingPathComponent("contacts.json")
        let json = #"[{"order": 1, "phone": "555\u001b[2J", "address": "line\nseller-contacts: forged"}]"#
        try Data(json.utf8).write(to: file)
        let result = await runSellerContacts(["--url", file.absoluteString])
        #expect(result.status == 0)
        #expect(!result.output.unicodeScalars.contains { $0.value == 0x1B })
        #expect(result.output.contains(#"line\nseller-contacts: forged"#))
        #expect(!result.output.contains("\nseller-contacts: forged"))
    }

    @Test func aFractionalOrderNamesItsPath() async throws {
        let file = try makeTemporaryDirectory().appendingPathComponent("contacts.json")
        try Data(#"[{"order": 1}, {"order": 1.5}]"#.utf8).write(to: file)
        let result = await runSellerContacts(["--url", file.absoluteString])
        #expect(result.status == 1)
        #expect(result.errors.contains("expected Int at $[1].order"), "\(result.errors)")
    }
}
