import ContentLoadingNetworking
import ContentLoadingRepository
import Foundation
import KitTestSupport
import Testing

/// A process performing mutations through an outbox that sends them to the real fixture
/// server as it goes, killed with SIGKILL at random moments (in a perform, a send, a settle, a
/// relaunch's replay), then launched once more: no mutation whose `perform` returned is lost,
/// none is applied twice, they are applied in order, and none is left pending. The server
/// counts the writes and idempotency keys it applied. 100 kills in CI
/// (`CLK_FULL_FAULT_CORPUS=1`), 1,000 with `CLK_SLOW_TESTS=1`.
@Suite(.timeLimit(.minutes(10)))
struct KillDuringReplayTests {
    /// The note the writer edits, as the server stores it.
    struct Note: Codable, Equatable {
        let id: Int
        var text: String
    }

    @Test func killedWhileSendingNoMutationIsLostOrAppliedTwiceAndTheNextLaunchSendsTheRest() async throws {
        let server = try LocalHTTPServer.start()
        defer { server.stop() }
        let client = APIClient()
        let note = server.url("records/notes/1")
        try await client.send(.put(note, body: Note(id: 1, text: "")))
        let path = try makeTemporaryDirectory().appendingPathComponent("outbox.sqlite").path
        let writer = ChildProcess.productsDirectory.appendingPathComponent("sqlite-crash-writer")
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SeededGenerator(seed: seed)
        var performed: [String] = []
        for round in 1...KillDuringPerformTests.rounds {
            let child = try await killedAtRandomMoment(
                arguments: [path, "\(round)", "0", "outbox-replay", note.absoluteString], ready: "performing",
                within: .milliseconds(20), using: &random, round: round)
            performed += child.remainingOutput().split(separator: "\n").map { String($0.dropFirst("performed ".count)) }
        }
        let launch = try ChildProcess(writer, arguments: [path, "0", "0", "outbox-replay", note.absoluteString])
        #expect(try launch.readLine() == "drained", "seed \(seed): \(launch.remainingErrors())")

        let applied = try await client.fetch(Note.self, from: note).text.split(separator: ",").map(String.init)
        let context = "seed \(seed), \(performed.count) performs returned, \(applied.count) applied"
        #expect(Set(performed).subtracting(applied).isEmpty, "\(context): none lost")
        #expect(Set(applied).count == applied.count, "\(context): none applied twice")
        #expect(applied == applied.sorted(by: Self.performedBefore), "\(context): in the order performed")
        #expect(
            applied.count - performed.count <= KillDuringPerformTests.rounds,
            "\(context): only a perform killed before it said so is applied unannounced (one per round)")
        let writes = try await client.fetch(Int.self, from: server.url("record-writes/notes"))
        let keys = try await client.fetch(Int.self, from: server.url("idempotency-keys"))
        #expect(writes == applied.count + 1, "\(context): one write per mutation (and the seed)")
        #expect(keys == applied.count, "\(context): one idempotency key per mutation")
        // NB: a plain run's 5 rounds may all be killed before a send; the full corpus's 100 must
        // have killed some between a send the server applied and its settle in the file.
        if KillDuringPerformTests.rounds >= 100 {
            let replays = try await client.fetch(Int.self, from: server.url("idempotency-replays"))
            #expect(replays > 0, "\(context): a mutation was sent again after a kill, with its key")
        }
    }

    /// Whether "ROUND.N" `first` was performed before `second`.
    static func performedBefore(_ first: String, _ second: String) -> Bool {
        let order = { (text: String) in text.split(separator: ".").map { Int($0) ?? 0 } }
        return order(first).lexicographicallyPrecedes(order(second))
    }
}
