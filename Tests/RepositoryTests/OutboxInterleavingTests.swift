import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// Mutations (a quarter of them in a scope they share across elements; some cancelled, all
/// purged now and then), list, page and detail fetches (each conditional, with its entity tag: a 304
/// when nothing it holds changed), local saves, sends, server outages, rejections,
/// conflicts (the server's copy changed: the server or the client wins, both are merged, or
/// the app is asked and resolves it later; a refused key is refused again, as a server's
/// idempotency memory does) and
/// relaunches, and fetches and saves by a second connection to the file (an app extension, with
/// its own outbox, never sent), each followed by a relaunch of the app, which then reads what that
/// connection wrote, interleaved at random over one cache file per run: 200 runs, 10,000 in the full
/// fault corpus (`CLK_FULL_FAULT_CORPUS=1`, as `.ci/run` sets it), in 4 shards that run side by
/// side.
///
/// After every step, every reader (the list, each detail, a persisted paging feed, the store's
/// row) shows what the client last learned from the server with exactly the pending mutations
/// applied, in the order performed; the outbox holds exactly those, in that order; and the
/// server holds what each confirmed mutation made of it, conflicts resolved as the mutation
/// says (a write whose `If-Match` is stale is refused; the entity tag held is the server
/// value's). It found a detail's entity tag dropped when its value equalled a row a list had
/// written again since, which sent the next mutation without `If-Match`; and a held conflict
/// the app let the server win rolling the element back to the value the conflict came with
/// over a newer one fetched since; and a second connection, opened before a mutation was
/// performed, writing the server's value over the element's row without it.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct OutboxInterleavingTests {
    static let runs = RandomizedRuns.count(full: 10_000, usual: 200)
    static let shards = 4

    @Test(arguments: 0..<shards)
    func randomInterleavingsShowServerTruthPlusExactlyThePendingMutations(shard: Int) async throws {
        // NB: a failure names its seed; `CLK_OUTBOX_SEED=<seed>` plays that seed again (in every shard).
        let seed =
            ProcessInfo.processInfo.environment["CLK_OUTBOX_SEED"].flatMap(UInt64.init) ?? .random(in: 0...UInt64.max)
        var random = SeededGenerator(seed: seed)
        // NB: in memory-backed /dev/shm where there is one: the runs are about the outbox, not
        // the disk, and 10,000 of them write a file each.
        let shm = URL(fileURLWithPath: "/dev/shm")
        let root =
            FileManager.default.isWritableFile(atPath: shm.path) ? shm : FileManager.default.temporaryDirectory
        let directory = root.appendingPathComponent("clk-outbox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for run in 0..<Self.runs / Self.shards {
            let path = directory.appendingPathComponent("run-\(run).sqlite").path
            // NB: half the runs have an extension (opening one costs each run's setup a file).
            let withExtension = Bool.random(using: &random)
            try await OutboxRun(path: path, context: "seed \(seed), run \(run)", withExtension: withExtension)
                .play(&random)
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        guard !RandomizedRuns.areFew else { return }
        #expect(OutboxRun.notModified.withLock { $0 } > 0, "some detail fetches were answered 304")
        #expect(OutboxRun.listsNotModified.withLock { $0 } > 0, "some list fetches were answered 304")
        #expect(OutboxRun.pagesNotModified.withLock { $0 } > 0, "some page refreshes were answered 304")
    }
}

/// One run: a client (store, list and detail repositories, a paused outbox) over one file,
/// the fake server, and the model of what the client should show.
private final class OutboxRun {
    typealias Contact = ElementStoreTests.Contact

    static let ids = [1, 2, 3]
    /// How many detail fetches, in every run, were answered "not modified".
    static let notModified = Locked(0)
    /// How many list fetches, in every run, were answered "not modified".
    static let listsNotModified = Locked(0)
    /// How many refreshes of the feed's initial page, in every run, were answered "not modified".
    static let pagesNotModified = Locked(0)
    let path: String
    let context: String
    let server = ContactServer(OutboxRun.ids.map { Contact(id: $0, phone: "s\($0)") })
    var client: Client
    /// The extension: a second connection to the file, opened at the start of the run (and
    /// again now and then), with a list of its own and an outbox it never sends; `nil` in a
    /// run without one.
    var extensionClient: Extension?
    var model = Model()
    var steps: [String] = []
    var counter = 0

    /// What one launch of the app holds.
    struct Client {
        let store: ElementStore<Contact>
        let lists: KeyedRepository<String, [Contact]>
        let details: KeyedRepository<Int, Contact>
        /// The contacts in pages of 2 (the cursor is the index of a page's first contact).
        let feed: PagingListViewModel<Void, Contact, Int>
        let outbox: Outbox<Contact, ContactServer>

        /// A launch over the file; `revalidatingPages`, its feed asks again for every stored
        /// page as it joins (with the page's entity tag).
        init(path: String, server: ContactServer, revalidatingPages: Bool = false) async throws {
            store = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
            // NB: a list's fetch is conditional too, with the list's entity tag: a 304 when no
            // contact changed since the list was fetched.
            lists = KeyedRepository(elements: store) { _, validators in
                let (contacts, tag) = try await server.allWithEntityTag()
                guard validators.entityTag != tag else {
                    OutboxRun.listsNotModified.withLock { $0 += 1 }
                    return .notModified(Validators(entityTag: tag))
                }
                return .modified(contacts, Validators(entityTag: tag))
            }
            // NB: the initial page's refresh is conditional, with the page's entity tag (made
            // as the list's, from its contacts' versions): a 304 when they did not change.
            feed = await PagingListViewModel(
                source: .persisted(
                    in: store, key: "feed", revalidatingPagesOlderThan: revalidatingPages ? .zero : nil
                ) { cursor, validators in
                    let (page, tag) = try await server.page(at: cursor)
                    guard validators.entityTag != tag else {
                        if cursor == nil { OutboxRun.pagesNotModified.withLock { $0 += 1 } }
                        return .notModified(Validators(entityTag: tag))
                    }
                    return .modified(page, Validators(entityTag: tag))
                })
            // NB: a detail's fetch is conditional, with the contact's entity tag, as an app's is.
            details = KeyedRepository(elements: store) { id, validators in
                let (contact, tag) = try await server.contact(id)
                let current = Validators(entityTag: tag)
                guard validators.entityTag != tag else {
                    OutboxRun.notModified.withLock { $0 += 1 }
                    return .notModified(current)
                }
                return .modified(contact, current)
            }
            // NB: paused, so sending happens only in the test's send steps, in a known order.
            outbox = Outbox(
                store: store, environment: server, mutations: [AppendToPhone.self],
                retryPolicy: RetryPolicy(attempts: 1), isPaused: true)
        }

        /// Refreshes the feed (its initial page), then pages on to its end.
        @MainActor func refreshFeed() async {
            await feed.refresh().completed()
            while feed.nextPageState == .idle { await feed.loadNextPage().settled() }
        }

        /// The phones the feed shows.
        @MainActor func feedPhones() -> [String] { feed.items.map(\.phone) }
    }

    /// What an app extension holds: a second connection to the file, a list of the contacts
    /// under its own key (fetched in full, compared with the one it holds), and an outbox
    /// (paused: the app sends) whose mutations its rows show.
    struct Extension {
        let store: ElementStore<Contact>
        let lists: KeyedRepository<String, [Contact]>
        let outbox: Outbox<Contact, ContactServer>

        init(path: String, server: ContactServer) throws {
            store = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
            lists = KeyedRepository(elements: store) { _ in try await server.all() }
            outbox = Outbox(
                store: store, environment: server, mutations: [AppendToPhone.self],
                retryPolicy: RetryPolicy(attempts: 1), isPaused: true)
        }
    }

    /// A mutation performed and not yet confirmed or rolled back.
    struct Pending: CustomStringConvertible {
        let id: Int
        let suffix: String
        let onConflict: String
        /// The mutation's scope: those that share one are sent in one chain, across elements.
        var scope: String?
        /// A conflict held for the app (`onConflict` "ask"): the server's value and entity tag
        /// it came with, what the user meant, and the value (and entity tag) learned when it came.
        var held: (server: String, tag: String, local: String, learned: String, learnedTag: String?)?
        /// How the app resolved the held conflict, until the queue ends it.
        var resolution: String?
        /// The refusal (412) the server remembers under the mutation's idempotency key: the
        /// server's value and entity tag it came with.
        var refusal: (server: String, tag: String)?
        /// A request sent again after a conflict that did not get through (offline, or a 412):
        /// the value and entity tag learned when the conflict came, the value it sent and its
        /// `If-Match`. Sent again as it is while nothing new is learned of the element (the value
        /// and tag held are those; until a relaunch).
        var resent: (learned: String, learnedTag: String?, edited: String, tag: String)?

        var description: String { "\(id)\(suffix)" }
    }

    /// What the client should show: per element, the phone it last learned from the server and
    /// the entity tag it holds; the pending mutations in order; and the server's side.
    struct Model {
        var learned: [Int: String] = Dictionary(uniqueKeysWithValues: OutboxRun.ids.map { ($0, "s\($0)") })
        /// The launch's detail fetches bring each contact's entity tag.
        var entityTags: [Int: String] = Dictionary(uniqueKeysWithValues: OutboxRun.ids.map { ($0, "v1") })
        var pending: [Pending] = []
        var server: [Int: String] = Dictionary(uniqueKeysWithValues: OutboxRun.ids.map { ($0, "s\($0)") })
        var versions: [Int: Int] = [:]
        var online = true
        /// The list's entity tag the client holds (the launch fetched it).
        var listTag: String? = "list:1.1,2.1,3.1"
        /// The entity tag of the feed's initial page (contacts 1 and 2) the client holds.
        var pageTag: String? = "list:1.1,2.1"
        /// The entity tag of the feed's second page (contact 3) stored with it.
        var secondPageTag: String? = "list:3.1"
        /// Whether this launch's feed asks again for its stored second page as it joins.
        var revalidatesPages = false
        /// The phones of the extension's list as it holds it (`nil`: it holds none).
        var extensionList: [String]?

        func shown(_ id: Int) -> String {
            learned[id, default: ""] + pending.filter { $0.id == id }.map(\.suffix).joined()
        }

        func serverTag(_ id: Int) -> String { "v\(versions[id, default: 1])" }

        /// The list's entity tag on the server.
        var serverListTag: String { serverTag(of: OutboxRun.ids) }

        /// The entity tag on the server of a list of `ids`.
        func serverTag(of ids: [Int]) -> String {
            "list:" + ids.map { "\($0).\(versions[$0, default: 1])" }.joined(separator: ",")
        }

        /// A refresh of the feed succeeded: its initial page (contacts 1 and 2) is "not
        /// modified" when the page's tag held is the server's, else fetched; the second page
        /// comes from the file, unless the launch asks again for stored pages (see below).
        mutating func refreshedFeed(afterRelaunch: Bool = false) {
            let initialPageChanged = pageTag != serverTag(of: [1, 2])
            if initialPageChanged {
                pageTag = serverTag(of: [1, 2])
                fetched([1, 2])
            }
            // NB: the second page joins the list again after a relaunch, or after an initial page
            // that changed (a "not modified" keeps the list shown, both pages); asking again for
            // stored pages, it is then asked for with the tag stored with it, as the initial page is.
            if revalidatesPages, afterRelaunch || initialPageChanged, secondPageTag != serverTag(of: [3]) {
                secondPageTag = serverTag(of: [3])
                fetched([3])
            }
        }

        /// A fetch of the list succeeded: "not modified" when the list's tag held is the
        /// server's (nothing is learned: the rows stay as they are), else as ``fetched(_:)``.
        mutating func fetchedList() {
            guard listTag != serverListTag else { return }
            listTag = serverListTag
            fetched(OutboxRun.ids)
        }

        /// A fetch of `ids` (a list, or one element) succeeded. A value equal to the one shown
        /// only confirms it (nothing is written: what was learned and its entity tag stay).
        /// Otherwise each element whose server value changed is learned, with no entity tag (a
        /// list carries none per element); one whose server value is the one held keeps its tag.
        mutating func fetched(_ ids: [Int]) {
            guard ids.contains(where: { shown($0) != server[$0] }) else { return }
            for id in ids where server[id] != learned[id] {
                learned[id] = server[id]
                entityTags[id] = nil
            }
        }

        /// The extension's fetch of its list succeeded: equal to the list it holds, it writes
        /// nothing; otherwise every element whose server value changed is learned, with no
        /// entity tag, and the rows show the pending mutations over it (the extension's outbox
        /// applies them); the extension then holds the list as shown.
        mutating func extensionFetched() {
            let fetched = OutboxRun.ids.map { server[$0, default: ""] }
            guard extensionList != fetched else { return }
            for id in OutboxRun.ids where server[id] != learned[id] {
                learned[id] = server[id]
                entityTags[id] = nil
            }
            extensionList = OutboxRun.ids.map(shown)
        }

        /// A fetch of the detail of `id` succeeded: it brings the server's value (unchanged
        /// or not) and its entity tag.
        mutating func fetchedDetail(_ id: Int) {
            learned[id] = server[id]
            entityTags[id] = serverTag(id)
        }

        /// The queue's run: each element's pending mutations sent in order, as the server
        /// answers them.
        mutating func send() {
            var kept: [Pending] = []
            let chains = Self.chains(pending)
            var stoppedChains = Set<Int>()
            for (index, var mutation) in pending.enumerated() {
                let id = mutation.id
                // NB: a failure stops its chain: the element's mutations, and those that share
                // a scope with them.
                var stopped = StoppedChain(chain: chains[index], stopped: stoppedChains)
                defer { stoppedChains = stopped.stopped }
                // NB: a conflict held for the app stops the element's chain, unsent.
                if stopped.contains(id) || (mutation.held != nil && mutation.resolution == nil) {
                    stopped.insert(id)
                    kept.append(mutation)
                    continue
                }
                if let held = mutation.held, let resolution = mutation.resolution {
                    // NB: the app's resolution, sent once with a new key: over the server's value
                    // the conflict came with, with its entity tag. Failed (offline, or a 412: the
                    // server changed again, which it remembers under the new key), it is pending
                    // as before and meets its conflict again.
                    mutation.held = nil
                    mutation.resolution = nil
                    mutation.refusal = nil
                    let edited = held.server + (resolution == "merge" ? " & " + held.local : mutation.suffix)
                    mutation.resent = (held.learned, held.learnedTag, edited, held.tag)
                    guard online, sent(edited, of: &mutation, ifMatch: held.tag) else {
                        stopped.insert(id)
                        kept.append(mutation)
                        continue
                    }
                    continue
                }
                guard online else {
                    // NB: a transient failure stops the element's chain; the rest waits behind it.
                    stopped.insert(id)
                    kept.append(mutation)
                    continue
                }
                if mutation.suffix == "+reject" { continue }
                // NB: a request sent again after a conflict that did not get through goes again as
                // it is while nothing new is learned of the element; else it is made again.
                var (edited, ifMatch) = (learned[id, default: ""] + mutation.suffix, entityTags[id])
                if let resent = mutation.resent, resent.learned == learned[id, default: ""],
                    resent.learnedTag == entityTags[id]
                {
                    (edited, ifMatch) = (resent.edited, resent.tag)
                } else {
                    mutation.resent = nil
                }
                // NB: a key the server refused before is refused again, with what it said then.
                var conflict = mutation.refusal
                if conflict == nil, let tag = ifMatch, tag != serverTag(id) {
                    conflict = (server[id, default: ""], serverTag(id))
                    mutation.refusal = conflict
                }
                guard let conflict else {
                    _ = sent(edited, of: &mutation, ifMatch: nil)
                    continue
                }
                switch mutation.onConflict {
                case "ask":
                    mutation.held = (conflict.server, conflict.tag, edited, learned[id, default: ""], entityTags[id])
                    stopped.insert(id)
                    kept.append(mutation)
                case "server":
                    learned[id] = conflict.server
                    entityTags[id] = conflict.tag
                default:
                    // NB: sent again at once, with a new key, over the server's value.
                    mutation.refusal = nil
                    let resent =
                        conflict.server + (mutation.onConflict == "merge" ? " & " + edited : mutation.suffix)
                    mutation.resent = (learned[id, default: ""], entityTags[id], resent, conflict.tag)
                    if !sent(resent, of: &mutation, ifMatch: conflict.tag) {
                        stopped.insert(id)
                        kept.append(mutation)
                    }
                }
            }
            pending = kept
        }

        /// The chain of each of `pending`: two mutations are in one when they edit one element
        /// or share a scope (also through others), as the outbox cuts its queue.
        static func chains(_ pending: [Pending]) -> [Int] {
            var parent = Array(pending.indices)
            func root(_ index: Int) -> Int { parent[index] == index ? index : root(parent[index]) }
            var first: [String: Int] = [:]
            for (index, mutation) in pending.enumerated() {
                for key in ["element \(mutation.id)"] + (mutation.scope.map { ["scope \($0)"] } ?? []) {
                    if let other = first[key] { parent[root(index)] = root(other) } else { first[key] = index }
                }
            }
            return pending.indices.map(root)
        }

        /// The chains stopped in a queue run, seen from one mutation's chain (`insert` and
        /// `contains` take an element id, as a run without scopes would).
        struct StoppedChain {
            let chain: Int
            var stopped: Set<Int>
            mutating func insert(_ id: Int) { stopped.insert(chain) }
            func contains(_ id: Int) -> Bool { stopped.contains(chain) }
        }

        /// The server's answer to `value` sent for `mutation` with `ifMatch`: stored, and
        /// learned with its new entity tag (`true`); or a 412 for a stale tag, which the server
        /// remembers under the mutation's key (`false`).
        mutating func sent(_ value: String, of mutation: inout Pending, ifMatch: String?) -> Bool {
            let id = mutation.id
            if let ifMatch, ifMatch != serverTag(id) {
                mutation.refusal = (server[id, default: ""], serverTag(id))
                return false
            }
            server[id] = value
            versions[id, default: 1] += 1
            learned[id] = value
            entityTags[id] = serverTag(id)
            return true
        }

        /// The app resolves the first conflict held as `resolution` says: the server's way at
        /// once (its value the conflict came with becomes the one learned, unless a newer one
        /// was learned since: another value, or the same with another entity tag), the others
        /// when the queue next runs.
        mutating func resolveFirstHeld(as resolution: String) {
            guard let index = pending.firstIndex(where: { $0.held != nil && $0.resolution == nil }),
                let held = pending[index].held
            else { return }
            guard resolution == "server" else {
                pending[index].resolution = resolution
                return
            }
            let id = pending[index].id
            pending.remove(at: index)
            if learned[id] == held.learned, entityTags[id] == held.learnedTag {
                learned[id] = held.server
                entityTags[id] = held.tag
            }
        }

        /// A relaunch: the conflicts held for the app are not (they come again when sent).
        mutating func relaunched() {
            for index in pending.indices {
                pending[index].held = nil
                pending[index].resolution = nil
                pending[index].resent = nil
            }
        }
    }

    init(path: String, context: String, withExtension: Bool) async throws {
        self.path = path
        self.context = context
        client = try await Client(path: path, server: server)
        extensionClient = withExtension ? try Extension(path: path, server: server) : nil
        try await client.lists.refresh("all")
        for id in Self.ids { try await client.details.refresh(id) }
        await client.refreshFeed()
    }

    func play(_ random: inout SeededGenerator) async throws {
        for _ in 0..<Int.random(in: 6...16, using: &random) {
            try await step(&random)
            try await check()
        }
        // NB: the server back, one more send: nothing is left pending.
        if !model.online { try await step("online") { await self.server.setOnline(true) } }
        model.online = true
        try await step("send") { await self.sendAll() }
        model.send()
        try await check()
        // NB: and each conflict held for the app resolved, the client's way, and sent (a
        // resolution sent with a stale entity tag meets its conflict again, on the next send).
        for _ in 0..<(3 * model.pending.count) where !model.pending.isEmpty {
            if model.pending.contains(where: { $0.held != nil }) {
                try await step("resolve client") { try await self.resolveFirstHeld(as: "client") }
                model.resolveFirstHeld(as: "client")
            }
            try await step("send") { await self.sendAll() }
            model.send()
            try await check()
        }
        #expect(model.pending.isEmpty, "\(context): \(steps)")
    }

    private func step(_ random: inout SeededGenerator) async throws {
        let id = Self.ids.randomElement(using: &random)!
        counter += 1
        let counter = counter
        switch Int.random(in: 0..<100, using: &random) {
        case 32..<34:
            guard !model.pending.isEmpty else { return }
            let index = Int.random(in: 0..<model.pending.count, using: &random)
            try await step("cancel \(model.pending[index])") {
                let pending = try await self.client.outbox.pendingMutations()
                #expect(try await self.client.outbox.cancel(pending[index]), "\(self.context): \(self.steps)")
            }
            model.pending.remove(at: index)
        case 34:
            try await step("purge") { try await self.client.outbox.purge() }
            model.pending.removeAll()
        case 0..<32:
            let suffix = Int.random(in: 0..<6, using: &random) == 0 ? "+reject" : "+\(counter)"
            let onConflict = ["server", "client", "merge", "ask"].randomElement(using: &random)!
            let scope = Int.random(in: 0..<4, using: &random) == 0 ? "s" : nil
            try await step("perform \(id)\(suffix) \(onConflict)\(scope.map { " in " + $0 } ?? "")") {
                try await self.client.outbox.perform(
                    AppendToPhone(id: id, suffix: suffix, onConflict: onConflict, scope: scope))
            }
            model.pending.append(Pending(id: id, suffix: suffix, onConflict: onConflict, scope: scope))
        case 35..<46:
            try await step("send") { await self.sendAll() }
            model.send()
        case 46..<50:
            let resolution = ["server", "client", "merge"].randomElement(using: &random)!
            try await step("resolve \(resolution)") { try await self.resolveFirstHeld(as: resolution) }
            model.resolveFirstHeld(as: resolution)
        case 50..<60:
            try await step("fetch list") { _ = try? await self.client.lists.refresh("all") }
            if model.online { model.fetchedList() }
        case 95..<98 where extensionClient != nil:
            // NB: the extension fetches (opened again first, now and then), then the app is
            // launched again and reads what it wrote.
            if Int.random(in: 0..<4, using: &random) == 0 {
                try await step("extension relaunch") {
                    self.extensionClient = try Extension(path: self.path, server: self.server)
                }
                model.extensionList = nil
            }
            let revalidating = Bool.random(using: &random)
            model.revalidatesPages = revalidating
            if Int.random(in: 0..<3, using: &random) == 0 {
                try await step("extension saves \(id), relaunch") {
                    try await self.extensionClient?.store.save(Contact(id: id, phone: "e\(counter)"))
                    self.client = try await Client(
                        path: self.path, server: self.server, revalidatingPages: revalidating)
                    await self.client.refreshFeed()
                }
                model.learned[id] = "e\(counter)"
                model.entityTags[id] = nil
                // NB: the save reaches the extension's list, as it shows the element.
                let shown = model.shown(id)
                model.extensionList?[id - 1] = shown
            } else {
                try await step("extension fetches list, relaunch") {
                    _ = try? await self.extensionClient?.lists.refresh("ext")
                    self.client = try await Client(
                        path: self.path, server: self.server, revalidatingPages: revalidating)
                    await self.client.refreshFeed()
                }
                if model.online { model.extensionFetched() }
            }
            model.relaunched()
            if model.online { model.refreshedFeed(afterRelaunch: true) }
        case 60..<67:
            try await step("fetch \(id)") { _ = try? await self.client.details.refresh(id) }
            if model.online { model.fetchedDetail(id) }
        case 67..<74:
            try await step("save \(id)") {
                try await self.client.store.save(Contact(id: id, phone: "l\(counter)"))
            }
            model.learned[id] = "l\(counter)"
            model.entityTags[id] = nil
        case 74..<82:
            try await step("server edits \(id)") { await self.server.setPhone(of: id, to: "x\(counter)") }
            model.server[id] = "x\(counter)"
            model.versions[id, default: 1] += 1
        case 82..<90:
            let online = !model.online
            try await step(online ? "online" : "offline") { await self.server.setOnline(online) }
            model.online = online
        case 90..<95:
            // NB: online, the initial page is fetched; the second comes from the file.
            try await step("refresh feed") { await self.client.refreshFeed() }
            if model.online { model.refreshedFeed() }
        default:
            let revalidating = Bool.random(using: &random)
            model.revalidatesPages = revalidating
            try await step("relaunch\(revalidating ? ", asking again for stored pages" : "")") {
                self.client = try await Client(path: self.path, server: self.server, revalidatingPages: revalidating)
                await self.client.refreshFeed()
            }
            model.relaunched()
            if model.online { model.refreshedFeed(afterRelaunch: true) }
        }
    }

    /// Resolves the first conflict held for the app (the model's: the outbox's pending
    /// mutations are the model's, in order) as `resolution` says.
    private func resolveFirstHeld(as resolution: String) async throws {
        guard let index = model.pending.firstIndex(where: { $0.held != nil && $0.resolution == nil }) else { return }
        let pending = try await client.outbox.pendingMutations()
        let resolutions: [String: ConflictResolution] = ["server": .serverWins, "client": .clientWins, "merge": .merge]
        await client.outbox.resolve(pending[index], with: resolutions[resolution]!)
    }

    /// Whether each step notes the element rows (`CLK_OUTBOX_TRACE=1`). NB: read once: reading
    /// the environment at every step was about 2% of the 10,000 runs' time.
    private static let tracesRows = ProcessInfo.processInfo.environment["CLK_OUTBOX_TRACE"] == "1"

    /// Runs `body`, noting `name` for the failure messages.
    private func step(_ name: String, _ body: () async throws -> Void) async throws {
        steps.append(name)
        try await body()
        // NB: `CLK_OUTBOX_TRACE=1` notes the element rows (id, entity tag, value, version) after
        // each step, for a failure's message.
        if Self.tracesRows {
            let rows = try sqlRows(
                "SELECT id || ' ' || ifnull(entity_tag, '-') || ' ' || CAST(value AS TEXT) || ' ' || version "
                    + "FROM content_loading_elements ORDER BY id", in: path)
            steps.append(rows.joined(separator: "; ").replacingOccurrences(of: "\"", with: ""))
        }
    }

    /// Sends what is pending (the outbox stays paused between sends).
    private func sendAll() async {
        await client.outbox.resume()
        client.outbox.pause()
    }

    /// Every reader shows the model's value of every element; the outbox holds the model's
    /// pending mutations, in order; the server holds the model's values.
    private func check() async throws {
        let expected = Self.ids.map(model.shown)
        let where_ = "\(context): \(steps)"
        let list = try await client.lists.value(for: "all", policy: .returnCacheDontLoad)?.value
        #expect(list?.map(\.phone) == expected, "the list, \(where_)")
        #expect(await client.feedPhones() == expected, "the feed, \(where_)")
        for (id, phone) in zip(Self.ids, expected) {
            #expect(
                try await client.details.value(for: id, policy: .returnCacheDontLoad)?.value.phone == phone,
                "detail \(id), \(where_)")
            #expect(try await client.store.element(id: id)?.phone == phone, "row \(id), \(where_)")
        }
        let pending = try await client.outbox.pendingMutations().compactMap { $0.mutation as? AppendToPhone }
        #expect(pending.map(\.suffix) == model.pending.map(\.suffix), "the outbox, \(where_)")
        for id in Self.ids {
            #expect(await server.phone(of: id) == model.server[id], "the server's \(id), \(where_)")
        }
        if !expected.elementsEqual(list?.map(\.phone) ?? []) { throw Stop() }
    }

    /// Ends a run at its first mismatch (the rest would only repeat it).
    struct Stop: Error {}
}
