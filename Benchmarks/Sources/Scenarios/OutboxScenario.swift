import ContentLoading
import ContentLoadingNetworking
import ContentLoadingRepository
import Foundation

/// W1–W2: offline edits through an `Outbox`.
///
/// - W1: `perform` of one mutation until the live reader of a 10,000-element list over the
///   store shows it (the mutation and the element written in one transaction, the list in
///   memory edited, the reader given it), as a distribution; beside it, a copy of the list's
///   array (what a reader would pay if an edit copied the list).
/// - W2: draining 1,000 queued mutations (10 of each of 100 elements) against the tests'
///   fixture server, vs the same 1,000 `PUT`s (bodies, `If-Match`, `Idempotency-Key`, answers
///   decoded) sent through `APIClient` alone, with the same shape: each element's in order,
///   the elements side by side.
@MainActor
public final class OutboxScenario {
    /// An element: an id and a title.
    public struct Item: Identifiable, Codable, Sendable, Equatable {
        /// The element's id.
        public let id: Int
        /// Its title; a mutation appends to it.
        public var title: String
    }

    /// Where the mutations go: one record of the fixture server per element.
    struct Remote: Sendable {
        let client = APIClient(transport: .urlSession())
        let base: URL
        func url(of id: Int) -> URL { base.appendingPathComponent("records/items/\(id)") }
    }

    /// Appends `suffix` to an item's title; sent as a `PUT` of the edited item, or, `answeredAtOnce`,
    /// answered with no request (the edited item encoded and decoded, as an answer is).
    struct Append: Mutation {
        let id: Int
        let suffix: String
        var answeredAtOnce = false
        var elementID: Int { id }
        func apply(to item: inout Item) { item.title += suffix }
        func send(using remote: Remote, context: MutationContext<Item>) async throws -> MutationResult<Item> {
            guard let edited = context.edited else { throw CancellationError() }
            let url = remote.url(of: id)
            let (body, entityTag): (Data, String?)
            if answeredAtOnce {
                (body, entityTag) = (try JSONEncoder().encode(edited), "\"\(edited.title.count)\"")
            } else {
                let response = try await remote.client.send(
                    .put(url, body: edited, ifMatch: context.entityTag, idempotencyKey: context.idempotencyKey))
                (body, entityTag) = (response.body, response.validators.entityTag)
            }
            return MutationResult(
                value: try remote.client.decode(Item.self, from: body, url: url), entityTag: entityTag)
        }
    }

    static let listCount = 10_000
    let store: ElementStore<Item>
    let lists: KeyedRepository<String, [Item]>
    let reader: AsyncStream<CacheEvent<[Item]>>.Iterator
    let outbox: Outbox<Item, Remote>
    let array: [Item]
    let remote: Remote
    let server: Process
    let serverInput: Pipe
    var performed = 0

    /// A store holding a 10,000-element list with one live reader and a paused outbox over
    /// it (W1), and the fixture server (W2).
    public init() async throws {
        let directory = try ScratchFolder.make("outbox")
        let base: URL
        (server, serverInput, base) = try RevalidationScenario.startServer(serving: directory)
        remote = Remote(base: base)
        let items = (0..<Self.listCount).map { Item(id: $0, title: "Item \($0)") }
        array = items
        store = ElementStore(disk: try DiskCache(.file(path: directory.appendingPathComponent("w1.sqlite").path)))
        lists = KeyedRepository(elements: store) { _ in items }
        try await lists.refresh("all")
        var reader = lists.events(for: "all", policy: .returnCacheDontLoad).makeAsyncIterator()
        _ = await reader.next(isolation: #isolation)
        self.reader = reader
        // NB: paused: W1 measures what a reader sees, not the requests.
        outbox = Outbox(store: store, environment: remote, mutations: [Append.self], isPaused: true)
    }

    /// W1, one sample: a mutation of the next element (each at most once pending) performed,
    /// until the list's live reader shows it.
    public func perform() async throws -> Duration {
        performed += 1
        let id = (performed * 7_919) % Self.listCount
        let started = ContinuousClock.now
        try await outbox.perform(Append(id: id, suffix: "+\(performed)"))
        var reader = reader
        guard case .value(let list)? = await reader.next(isolation: #isolation),
            list.value[id].title.hasSuffix("+\(performed)")
        else { fatalError("W1: the reader did not get the mutation") }
        return .now - started
    }

    /// W1's context: a copy of the list's array, edited while another holds it.
    public func arrayCopy() {
        var items = array
        items[Self.listCount / 2].title = "copied \(performed)"
        guard items.count == Self.listCount, items[Self.listCount / 2] != array[Self.listCount / 2] else {
            fatalError("W1: no copy")
        }
    }

    /// W2, the kit: a fresh file with 100 elements and 1,000 mutations queued (10 each, not
    /// timed), then the queue drained against the server, timed.
    public func drain() async throws -> Duration {
        try await drain(answeredAtOnce: false)
    }

    /// W2's context, the outbox's own work: the same 1,000 queued mutations drained with each
    /// answer made at once (the edited item encoded and decoded, as an answer is), no request.
    public func localDrain() async throws -> Duration {
        try await drain(answeredAtOnce: true)
    }

    /// 1,000 appends (10 of each of 100 elements, in a fresh file) queued, not timed; then the
    /// queue drained, timed.
    private func drain(answeredAtOnce: Bool) async throws -> Duration {
        let folder = try ScratchFolder.make("drain")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("w2.sqlite")
        let store = ElementStore<Item>(disk: try DiskCache(.file(path: path.path)))
        for id in 0..<100 { try await store.save(Item(id: id, title: "")) }
        let outbox = Outbox(store: store, environment: remote, mutations: [Append.self], isPaused: true)
        for round in 0..<10 {
            for id in 0..<100 {
                try await outbox.perform(Append(id: id, suffix: "\(round),", answeredAtOnce: answeredAtOnce))
            }
        }
        let started = ContinuousClock.now
        await outbox.resume()
        let elapsed = ContinuousClock.now - started
        guard try await outbox.pendingCount() == 0 else { fatalError("W2: the queue did not drain") }
        return elapsed
    }

    /// W2, the baseline: the same 1,000 `PUT`s through `APIClient`, each element's in order
    /// with the entity tag of the previous answer, the elements side by side.
    public func clientAlone() async throws -> Duration {
        let remote = remote
        let started = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in 0..<100 {
                group.addTask {
                    var item = Item(id: id, title: "")
                    var entityTag: String?
                    for round in 0..<10 {
                        item.title += "\(round),"
                        let url = remote.url(of: id)
                        let response = try await remote.client.send(
                            .put(url, body: item, ifMatch: entityTag, idempotencyKey: UUID().uuidString))
                        item = try remote.client.decode(Item.self, from: response.body, url: url)
                        entityTag = response.validators.entityTag
                    }
                }
            }
            try await group.waitForAll()
        }
        return .now - started
    }

    /// Stops the server (it exits when its standard input closes).
    public func stop() {
        try? serverInput.fileHandleForWriting.close()
        server.waitUntilExit()
    }
}
