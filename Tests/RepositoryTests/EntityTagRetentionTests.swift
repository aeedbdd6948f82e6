import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import Foundation
import KitTestSupport
import Testing

/// The entity tag an element holds (the next mutation's `If-Match`) belongs to its server
/// value: a list fetch, which carries no tag per element, keeps it when it brings the same
/// value, and drops it when it brings another.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct EntityTagRetentionTests {
    typealias Contact = ElementStoreTests.Contact

    let server = ContactServer([Contact(id: 1, phone: "one"), Contact(id: 2, phone: "two")])
    let path: String
    let store: ElementStore<Contact>
    let details: KeyedRepository<Int, Contact>
    let lists: KeyedRepository<String, [Contact]>
    let outbox: Outbox<Contact, ContactServer>

    /// Contact 1 read as a detail, with its entity tag.
    init() async throws {
        path = try temporaryCachePath()
        store = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        let server = server
        details = KeyedRepository<Int, Contact>(elements: store) { id, _ in
            let (contact, entityTag) = try await server.contact(id)
            return .modified(contact, Validators(entityTag: entityTag, lastModified: nil, freshness: nil))
        }
        lists = KeyedRepository(elements: store) { _ in try await server.all() }
        outbox = Outbox(
            store: store, environment: server, mutations: [AppendToPhone.self], retryPolicy: RetryPolicy(attempts: 1))
        try await details.refresh(1)
    }

    /// Performs `+a` on contact 1 and returns how its send ended.
    func performAndSend() async throws -> String {
        var events = outbox.outcomes.makeAsyncIterator()
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a"))
        switch await events.next() {
        case .conflict?: return "conflict"
        case .confirmed?: return "confirmed"
        default: return "other"
        }
    }

    @Test func aListFetchOfTheSameValueKeepsTheTagSoAnEditOfAStaleCopyIsAConflict() async throws {
        try await lists.refresh("all")
        await server.setPhone(of: 1, to: "ONE")
        #expect(try await performAndSend() == "conflict", "sent with the detail's If-Match, now stale")
        #expect(await server.phone(of: 1) == "ONE", "the server's edit is not overwritten")
    }

    @Test func aListFetchOfAnotherValueDropsTheTag() async throws {
        await server.setPhone(of: 1, to: "ONE")
        try await lists.refresh("all")
        #expect(try await performAndSend() == "confirmed", "no tag held for the new value: sent without If-Match")
        #expect(await server.phone(of: 1) == "ONE+a")
    }

    @Test func aDetailFetchOfTheValueAListBroughtTakesItsTagThoughTheRowWasWrittenAgainSince() async throws {
        await server.setPhone(of: 1, to: "ONE")
        try await lists.refresh("all")
        // NB: the list again, changed by contact 2 only: contact 1's row is written again at a
        // newer version, which the detail's copy of it does not have.
        await server.setPhone(of: 2, to: "TWO")
        try await lists.refresh("all")
        // NB: the value the detail holds, with the server's tag: compared equal, confirmed.
        try await details.refresh(1)
        #expect(
            try sqlRows("SELECT ifnull(entity_tag, '-') FROM content_loading_elements WHERE id = '1'", in: path) == [
                "v2"
            ], "the row holds the tag of its value")

        await server.setPhone(of: 1, to: "ONE!")
        #expect(try await performAndSend() == "conflict", "sent with the detail's If-Match, now stale")
        #expect(await server.phone(of: 1) == "ONE!", "the server's edit is not overwritten")
    }

    /// `serverChanged`: the fetch is answered in full (its write keeps the save); otherwise a
    /// 304 for the value the save replaced (it confirms nothing of the save).
    @Test(arguments: [false, true])
    func aDetailFetchThatFindsASaveMadeSinceByAnotherProcessLeavesItWithoutTheFetchsTag(serverChanged: Bool)
        async throws
    {
        let server = server
        let gate = Locked<PagedCatalog.Gate?>(nil)
        let conditional = KeyedRepository<Int, Contact>(elements: store) { id, validators in
            if let held = gate.withLock({ $0 }) {
                held.arrived.resolve(())
                await held.released.wait()
            }
            let (contact, tag) = try await server.contact(id)
            return validators.entityTag == tag
                ? .notModified(Validators(entityTag: tag)) : .modified(contact, Validators(entityTag: tag))
        }
        if serverChanged { await server.setPhone(of: 1, to: "ONE") }
        let held = PagedCatalog.Gate()
        gate.withLock { $0 = held }
        let fetch = Task { try await conditional.refresh(1) }
        await held.requested()
        // NB: saved by another process on the file (here another store): the fetch finds it.
        try await ElementStore<Contact>(disk: try DiskCache(.file(path: path))).save(Contact(id: 1, phone: "saved"))
        held.release()
        _ = try await fetch.value
        #expect(try await conditional.value(for: 1, policy: .returnCacheDontLoad)?.value.phone == "saved")
        #expect(
            try sqlRows("SELECT ifnull(entity_tag, '-') FROM content_loading_elements WHERE id = '1'", in: path) == [
                "-"
            ], "the save holds no entity tag")

        // NB: so the next fetch brings the server's value in full.
        gate.withLock { $0 = nil }
        try await conditional.refresh(1)
        #expect(
            try await conditional.value(for: 1, policy: .returnCacheDontLoad)?.value.phone
                == (serverChanged ? "ONE" : "one"))
    }
}
