import ContentLoading
import ContentLoadingRepository
import Foundation
import KitTestSupport
import Testing

/// Two running outboxes over one store, with mutations performed through either, sends and
/// cancels through either left to run side by side, and the server going off and on line,
/// interleaved at random: 150 runs (1,000 with `CLK_FULL_FAULT_CORPUS=1`). Once the queue is
/// drained through both, nothing is pending, in the file or in either outbox, and every element
/// shows the value the server holds: no mutation was lost, left stuck, or rolled back after the
/// server applied it.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct OutboxSharedStoreInterleavingTests {
    typealias Contact = ElementStoreTests.Contact

    static let runs = RandomizedRuns.count(full: 1_000, usual: 150)

    @Test func randomInterleavingsOfTwoOutboxesDrainToWhatTheServerHolds() async throws {
        // NB: a failure names its seed; `CLK_SHARED_OUTBOX_SEED=<seed>` plays that seed again.
        let seed =
            ProcessInfo.processInfo.environment["CLK_SHARED_OUTBOX_SEED"].flatMap(UInt64.init)
            ?? .random(in: 0...UInt64.max)
        var random = SeededGenerator(seed: seed)
        for run in 0..<Self.runs {
            try await play(&random, context: "seed \(seed), run \(run)")
        }
    }

    private func play(_ random: inout SeededGenerator, context: String) async throws {
        let server = ContactServer([Contact(id: 1, phone: "one"), Contact(id: 2, phone: "two")])
        let store = ElementStore<Contact>(disk: try DiskCache(.file(path: try temporaryCachePath())))
        for contact in try await server.all() { try await store.save(contact) }
        let outboxes = (0..<2).map { _ in
            Outbox(
                store: store, environment: server, mutations: [AppendToPhone.self],
                retryPolicy: RetryPolicy(attempts: 1))
        }
        var steps: [String] = []
        var tasks: [Task<Void, Never>] = []
        for step in 0..<12 {
            let which = Int.random(in: 0...1, using: &random)
            let outbox = outboxes[which]
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                let id = Int.random(in: 1...2, using: &random)
                try await outbox.perform(AppendToPhone(id: id, suffix: "+\(step)"))
                steps.append("perform \(id)+\(step) through \(which)")
            case 5..<7:
                tasks.append(Task { await outbox.send() })
                steps.append("send through \(which)")
            case 7:
                let pending = try await outbox.pendingMutations()
                guard !pending.isEmpty else { continue }
                let mutation = pending[Int.random(in: 0..<pending.count, using: &random)]
                tasks.append(Task { _ = try? await outbox.cancel(mutation) })
                steps.append("cancel \(mutation.elementKey) #\(mutation.sequence) through \(which)")
            case 8:
                let online = Bool.random(using: &random)
                await server.setOnline(online)
                steps.append(online ? "online" : "offline")
            default:
                await Task.yield()
            }
        }
        await server.setOnline(true)
        for task in tasks { await task.value }
        // NB: `send()` waits for a run under way; a queue the other woke may start one after.
        for _ in 0..<50 where try await outboxes[0].pendingCount() > 0 {
            await outboxes[0].send()
            await outboxes[1].send()
        }
        let trace = "\(context): \(steps.joined(separator: "; "))"
        #expect(try await outboxes[0].pendingCount() == 0, "nothing pending: \(trace)")
        for id in [1, 2] {
            let shown = try await store.element(id: id)?.phone
            let held = await server.phone(of: id)
            #expect(shown == held, "contact \(id) shows what the server holds: \(trace)")
        }
    }
}
