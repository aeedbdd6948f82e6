import ContentLoadingRepository
import Foundation
import KitTestSupport
import Testing

/// A process performing mutations through an outbox, killed with SIGKILL at random moments:
/// every mutation whose `perform` returned is in the file, in order, and the element's row
/// shows its server value with exactly the stored mutations applied. 100 kills in CI
/// (`CLK_FULL_FAULT_CORPUS=1`), 1,000 with `CLK_SLOW_TESTS=1`.
@Suite(.timeLimit(.minutes(10)))
struct KillDuringPerformTests {
    static let rounds =
        ProcessInfo.processInfo.environment["CLK_SLOW_TESTS"] == "1" ? 1_000 : FaultCorpus.isFull ? 100 : 5

    @Test func aKilledPerformLosesNoMutationWhosePerformReturned() async throws {
        let path = try makeTemporaryDirectory().appendingPathComponent("outbox.sqlite").path
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SeededGenerator(seed: seed)
        var performed: [String] = []
        for round in 1...Self.rounds {
            // NB: the performs come about every millisecond.
            let child = try await killedAtRandomMoment(
                arguments: [path, "\(round)", "0", "outbox"], ready: "performing", within: .milliseconds(20),
                using: &random, round: round)
            performed += child.remainingOutput().split(separator: "\n").map { String($0.dropFirst("performed ".count)) }
            let stored = try Self.checkedOutbox(in: path, "round \(round), seed \(seed)")
            let kept = stored.starts(with: performed)
            #expect(
                kept,
                "round \(round), seed \(seed): every returned perform is stored, in order (\(performed.count) returned, \(stored.count) stored)"
            )
            // NB: a mutation stored but killed before it said so is performed too.
            performed = stored
        }
        // NB: the few rounds of a plain run (under TSan the child is slow) may all be killed
        // before a perform; the full corpus's 100 must not.
        if Self.rounds >= 100 {
            #expect(performed.count >= Self.rounds, "mutations were performed (seed \(seed)): \(performed.count)")
        }
    }

    /// Checks the file at `path` after a kill and returns the stored mutations' suffixes, in
    /// order ("ROUND.N"): the file intact, and note 1's row its kept server value ("") with
    /// exactly those mutations applied.
    static func checkedOutbox(in path: String, _ context: String) throws -> [String] {
        let database = try SQLiteDatabase(.file(path: path))
        let integrity = try database.prepare("PRAGMA integrity_check")
        #expect(try integrity.step() && integrity.text(at: 0) == "ok", "\(context)")
        let select = try database.prepare("SELECT CAST(payload AS TEXT) FROM content_loading_outbox ORDER BY sequence")
        var suffixes: [String] = []
        while try select.step() {
            suffixes.append(try JSONDecoder().decode(Stored.self, from: Data((select.text(at: 0) ?? "").utf8)).suffix)
        }
        let row = try database.prepare("SELECT CAST(value AS TEXT) FROM content_loading_elements WHERE id = '1'")
        guard try row.step() else { return suffixes }
        let note = try JSONDecoder().decode(Stored.self, from: Data((row.text(at: 0) ?? "").utf8))
        #expect(note.text == suffixes.joined(), "\(context): the row shows exactly the stored mutations")
        return suffixes.map { String($0.dropLast()) }
    }

    /// The fields of a stored mutation (`suffix`) or note (`text`) the check reads.
    private struct Stored: Decodable {
        var suffix = ""
        var text = ""

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            suffix = try container.decodeIfPresent(String.self, forKey: .suffix) ?? ""
            text = try container.decodeIfPresent(String.self, forKey: .text) ?? ""
        }

        enum Keys: String, CodingKey { case suffix, text }
    }
}
