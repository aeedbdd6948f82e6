import ContentLoadingRepository
import Foundation
import KitTestSupport
import SellerContacts
import Testing

/// `seller-contacts --database` killed with SIGKILL at random moments of a sync: the file is
/// always intact, and holds the old version or the new one, never a mix.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct KillDuringSyncTests {
    static let rounds = FaultCorpus.isFull ? 100 : 5
    static let size = 20_000

    /// A version of the contacts, all with the version's label in their address.
    private static func version(_ number: Int, in directory: URL) throws -> URL {
        let contacts = (0..<size).map {
            SellerContacts(address: "Version \(number) Street \($0)", order: $0, phone: "+1 555 \($0)")
        }
        let url = directory.appendingPathComponent("v\(number).json")
        try JSONEncoder().encode(contacts).write(to: url)
        return url
    }

    @Test func aKilledSyncLeavesTheOldOrTheNewVersion() async throws {
        let directory = try makeTemporaryDirectory()
        let path = directory.appendingPathComponent("contacts.sqlite").path
        let versions = [try Self.version(1, in: directory), try Self.version(2, in: directory)]
        let command = ChildProcess.productsDirectory.appendingPathComponent("seller-contacts")
        let first = try ChildProcess(
            command, arguments: ["--url", versions[0].absoluteString, "--database", path], discardingOutput: true)
        #expect(await first.exitStatus(within: .seconds(60)) == 0, "the first sync: \(first.remainingErrors())")

        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SeededGenerator(seed: seed)
        var killed = 0
        for round in 0..<Self.rounds {
            let target = versions[round % 2 == 0 ? 1 : 0]
            let child = try ChildProcess(
                command, arguments: ["--url", target.absoluteString, "--database", path], discardingOutput: true)
            // NB: fault injection, not synchronisation: the kill lands at a random moment of
            // the run (start-up, reading, decoding, writing, committing), which takes ~0.5 s.
            try await Task.sleep(for: .milliseconds(Int(random.next() % 600)))
            if child.isRunning { killed += 1 }
            child.kill()

            let database = try SQLiteDatabase(.file(path: path))
            let check = try database.prepare("PRAGMA integrity_check")
            #expect(try check.step())
            #expect(check.text(at: 0) == "ok", "round \(round), seed \(seed)")
            let stored = try await SQLiteStore<SellerContacts>(.file(path: path)).fetchAll()
            let labels = Set(stored.map { $0.address?.split(separator: " ").prefix(2).joined(separator: " ") ?? "" })
            #expect(stored.count == Self.size, "round \(round), seed \(seed)")
            #expect(labels == ["Version 1"] || labels == ["Version 2"], "round \(round), seed \(seed): \(labels)")
        }
        #expect(killed > 0, "at least one run was killed before it ended (seed \(seed))")
    }
}
