import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// Appends to one contact performed (their conflicts won by the client, sent again over the
/// server's value, or by the server), sent (the answer coming at once, held while the list or
/// the contact's detail is fetched, or lost on its way back after the server stored the edit,
/// a fetch made before it or not), the list and the detail (with its entity tag) fetched, the
/// server's copies edited by someone else and the server going off and on line, interleaved at
/// random: 500 runs, 2,000 in the full fault corpus (`CLK_FULL_FAULT_CORPUS=1`). The server
/// checks an idempotency key's payload, as the IETF draft asks: a key sent again with another
/// value is refused.
///
/// After every step, the list and the store's row show the server value the client last
/// learned with the pending mutations applied, less the first when that value is what its
/// last request sent (the server stored it); the outbox holds the model's pending mutations;
/// the server holds what the model says: no edit shown twice, none sent twice, none reported
/// rejected after it took effect. A mutation sent again while nothing new was learned of the
/// contact is its last request again (the model's `last`).
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct OutboxInFlightRandomTests {
    static let runs = RandomizedRuns.count(full: 2_000, usual: 500)

    @Test func randomSendsFetchesAndEditsShowEachPendingMutationOnce() async throws {
        // NB: a failure names its seed; `CLK_IN_FLIGHT_SEED=<seed>` plays that seed again.
        let seed =
            ProcessInfo.processInfo.environment["CLK_IN_FLIGHT_SEED"].flatMap(UInt64.init)
            ?? .random(in: 0...UInt64.max)
        var random = SeededGenerator(seed: seed)
        for run in 0..<Self.runs {
            try await InFlightRun(context: "seed \(seed), run \(run)").play(&random)
        }
        guard !RandomizedRuns.areFew else { return }
        #expect(InFlightRun.checksOfAValueHoldingIt.withLock { $0 } > 0, "some server values held the first mutation")
    }
}

/// One run: contacts 1 and 2 on the server, a list of both over a store, an outbox of appends
/// to contact 1, paused between the test's sends.
private final class InFlightRun {
    typealias Contact = ElementStoreTests.Contact

    /// How many checks, in every run, met a server value holding the first pending mutation.
    static let checksOfAValueHoldingIt = Locked(0)
    let context: String
    let server = ContactServer([Contact(id: 1, phone: "s1"), Contact(id: 2, phone: "s2")])
    let lists: KeyedRepository<String, [Contact]>
    /// Contact 1's detail, fetched with its entity tag ("not modified" when it is the one held).
    let details: KeyedRepository<Int, Contact>
    let store: ElementStore<Contact>
    let outbox: Outbox<Contact, ContactServer>
    var model = Model()
    var steps: [String] = []

    init(context: String) async throws {
        self.context = context
        store = ElementStore<Contact>(disk: try DiskCache(.file(path: try temporaryCachePath())))
        let server = server
        lists = KeyedRepository(elements: store) { _ in try await server.all() }
        details = server.conditionalDetails(over: store)
        outbox = Outbox(
            store: store, environment: server, mutations: [AppendToPhone.self], retryPolicy: RetryPolicy(attempts: 1),
            isPaused: true)
        await server.setChecksPayloads(true)
        try await lists.refresh("all")
        try await details.refresh(1)
    }

    /// A pending append: whether it wins its conflicts (sent again over the server's value) or
    /// the server does, what the server stored under its key, and its last request (the value
    /// learned when it went, the value it sent, its `If-Match`).
    struct Pending {
        let suffix: String
        let clientWins: Bool
        var stored: String?
        var last: (learned: String, sent: String, ifMatch: String?)?
    }

    /// What is fetched while a send's first answer is held.
    enum Fetch: CaseIterable { case nothing, list, detail }

    /// How a send's first request is answered: at once, or held while `fetch` is made, then
    /// given or lost.
    enum Answer: CustomStringConvertible {
        case atOnce
        case held(while: Fetch, lost: Bool)

        var description: String {
            switch self {
            case .atOnce: "at once"
            case .held(let fetch, let lost): "held while fetching \(fetch), then \(lost ? "lost" : "given")"
            }
        }
    }

    /// What the server and the client hold.
    struct Model {
        var server = ["s1", "s2"]
        /// The server's version of contact 1 (its entity tag is "v" + it).
        var version = 1
        var learned = ["s1", "s2"]
        /// The entity tag the client holds for contact 1 (`nil` after a list fetch changed it).
        var tag: String? = "v1"
        var pending: [Pending] = []
        var online = true

        /// What contact 1's readers show.
        var shown: String {
            let showing = pending.first?.last?.sent == learned[0] ? pending.dropFirst() : pending[...]
            return learned[0] + showing.map(\.suffix).joined()
        }

        /// A list fetch: an equal list writes nothing; otherwise the server's values are learned
        /// (a changed one without an entity tag: a list carries none per element).
        mutating func fetchedList() {
            guard online, server != [shown, learned[1]] else { return }
            if server[0] != learned[0] { tag = nil }
            learned = server
        }

        /// A detail fetch: the server's value and its entity tag ("not modified" when the tag
        /// is the one held: then the value is too).
        mutating func fetchedDetail() {
            guard online else { return }
            (learned[0], tag) = (server[0], "v\(version)")
        }

        /// What a fetch made while an answer is held learns.
        mutating func fetched(_ fetch: Fetch) {
            switch fetch {
            case .nothing: break
            case .list: fetchedList()
            case .detail: fetchedDetail()
            }
        }

        /// Whether a send now stores a value (so an answer held can be waited for).
        var sendStores: Bool {
            var probe = self
            return probe.send(.atOnce)
        }

        /// A send: contact 1's mutations in order, until one stays pending; whether a request
        /// stored a value. The first that does is answered as `answer` says.
        @discardableResult mutating func send(_ answer: Answer) -> Bool {
            var stores = false
            while let mutation = pending.first {
                // NB: the last request again while nothing new is learned; else made over the
                // value learned, as it is when that is what the last request sent.
                var (edited, ifMatch) = (learned[0] + mutation.suffix, tag)
                if let last = mutation.last, last.learned == learned[0] {
                    (edited, ifMatch) = (last.sent, last.ifMatch)
                } else if mutation.last?.sent == learned[0] {
                    edited = learned[0]
                }
                // NB: noted before the request goes, reached or not.
                pending[0].last = (learned[0], edited, ifMatch)
                guard online else { return stores }
                if let stored = mutation.stored {
                    pending.removeFirst()
                    // NB: the key's answer again, or a refusal of another value under it (rolled back).
                    if stored == edited { (learned[0], tag) = (stored, "v\(version)") }
                    continue
                }
                if let ifMatch, ifMatch != "v\(version)" {
                    guard mutation.clientWins else {
                        // NB: a 412 the server wins: its value, rolled back to.
                        pending.removeFirst()
                        (learned[0], tag) = (server[0], "v\(version)")
                        continue
                    }
                    // NB: a 412 the client wins: sent again at once over the server's value,
                    // with its entity tag and a new key.
                    edited = server[0] + mutation.suffix
                    pending[0].last = (learned[0], edited, "v\(version)")
                }
                (server[0], version) = (edited, version + 1)
                pending[0].stored = edited
                defer { stores = true }
                if !stores, case .held(let fetch, let lost) = answer {
                    fetched(fetch)
                    if lost { return true }
                }
                pending.removeFirst()
                (learned[0], tag) = (edited, "v\(version)")
            }
            return stores
        }
    }

    func play(_ random: inout SeededGenerator) async throws {
        for counter in 0..<Int.random(in: 4...14, using: &random) {
            switch Int.random(in: 0..<11, using: &random) {
            case 0..<3:
                let clientWins = Bool.random(using: &random)
                try await step("perform +\(counter)\(clientWins ? ", the client wins" : "")") {
                    try await self.outbox.perform(
                        AppendToPhone(id: 1, suffix: "+\(counter)", onConflict: clientWins ? "client" : "server"))
                }
                model.pending.append(Pending(suffix: "+\(counter)", clientWins: clientWins))
            case 3..<6:
                let answer =
                    model.sendStores && Bool.random(using: &random)
                    ? Answer.held(
                        while: Fetch.allCases.randomElement(using: &random)!, lost: Bool.random(using: &random))
                    : Answer.atOnce
                try await step("send, answer \(answer)") { await self.send(answer) }
                model.send(answer)
            case 6:
                try await step("fetch list") { await self.fetch(.list) }
                model.fetchedList()
            case 7:
                try await step("fetch detail") { await self.fetch(.detail) }
                model.fetchedDetail()
            case 8, 9:
                let id = Int.random(in: 1...2, using: &random)
                try await step("server edits \(id)") { await self.server.setPhone(of: id, to: "x\(counter)") }
                model.server[id - 1] = "x\(counter)"
                if id == 1 { model.version += 1 }
            default:
                let online = !model.online
                try await step(online ? "online" : "offline") { await self.server.setOnline(online) }
                model.online = online
            }
            try await check()
        }
    }

    /// Sends what is pending, the first request answered as `answer` says; the outbox stays
    /// paused after.
    private func send(_ answer: Answer) async {
        guard case .held(let fetch, let lost) = answer else {
            await outbox.resume()
            outbox.pause()
            return
        }
        let gate = server.holdNextAnswer(losingIt: lost)
        let sending = Task { [outbox] in
            await outbox.resume()
            outbox.pause()
        }
        await gate.requested()
        await self.fetch(fetch)
        // NB: a lost answer's run is paused first: a run asked for meanwhile (the launch's, a
        // perform's, a fetch's after a failure: each from a task of its own, which may come
        // late) would send the mutation again at once. Sent on, the others find nothing to do.
        if lost { outbox.pause() }
        gate.release()
        await sending.value
    }

    /// Fetches the list or the detail (a failure, offline, is the model's to expect).
    private func fetch(_ fetch: Fetch) async {
        switch fetch {
        case .nothing: break
        case .list: _ = try? await lists.refresh("all")
        case .detail: _ = try? await details.refresh(1)
        }
    }

    private func step(_ name: String, _ body: () async throws -> Void) async throws {
        steps.append(name)
        try await body()
    }

    private func check() async throws {
        let where_ = "\(context): \(steps)"
        let list = try await lists.value(for: "all", policy: .returnCacheDontLoad)?.value.map(\.phone)
        #expect(list == [model.shown, model.learned[1]], "the list, \(where_)")
        #expect(try await store.element(id: 1)?.phone == model.shown, "the row, \(where_)")
        let detail = try await details.value(for: 1, policy: .returnCacheDontLoad)?.value.phone
        #expect(detail == model.shown, "the detail, \(where_)")
        let pending = try await outbox.pendingMutations().compactMap { ($0.mutation as? AppendToPhone)?.suffix }
        #expect(pending == model.pending.map(\.suffix), "the outbox, \(where_)")
        #expect(await server.phone(of: 1) == model.server[0], "the server, \(where_)")
        if list != [model.shown, model.learned[1]] { throw Stop() }
        if model.pending.first?.last?.sent == model.learned[0] {
            Self.checksOfAValueHoldingIt.withLock { $0 += 1 }
        }
    }

    /// Ends a run at its first mismatch (the rest would only repeat it).
    struct Stop: Error {}
}
