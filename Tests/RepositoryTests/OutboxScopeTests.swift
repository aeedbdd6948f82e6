import ContentLoading
import ContentLoadingRepository
import Foundation
import Testing

/// Scopes: mutations that share a ``Mutation/scope`` are sent one at a time, in the order
/// performed, across elements; those of other elements and scopes go side by side.
@Suite(.timeLimit(.minutes(1)))
struct OutboxScopeTests {
    typealias Contact = ElementStoreTests.Contact

    /// Sets a contact's phone, in `scope`.
    struct ScopedPhone: Mutation {
        let id: Int
        let phone: String
        let scope: String?
        var elementID: Int { id }
        func apply(to contact: inout Contact) { contact.phone = phone }
        func send(using server: ContactServer, context: MutationContext<Contact>) async throws
            -> MutationResult<Contact>
        {
            try await server.put(context.edited, key: context.idempotencyKey, rejecting: false)
        }
    }

    let server = ContactServer([Contact(id: 1, phone: "one"), Contact(id: 2, phone: "two"), Contact(id: 3, phone: "3")])
    let outbox: Outbox<Contact, ContactServer>

    init() async throws {
        let store = ElementStore<Contact>(disk: try DiskCache(.file(path: try temporaryCachePath())))
        let server = server
        let lists = KeyedRepository<String, [Contact]>(elements: store) { _ in try await server.all() }
        try await lists.refresh("all")
        outbox = Outbox(store: store, environment: server, mutations: [ScopedPhone.self], isPaused: true)
    }

    @Test func aScopesMutationsGoOneAtATimeInOrderAcrossElementsAndOtherScopesGoAlongside() async throws {
        try await outbox.perform(ScopedPhone(id: 1, phone: "a", scope: "profile"))
        try await outbox.perform(ScopedPhone(id: 2, phone: "b", scope: "profile"))
        try await outbox.perform(ScopedPhone(id: 3, phone: "c", scope: nil))
        let keys = try await outbox.pendingMutations().map(\.idempotencyKey)
        var events = outbox.outcomes.makeAsyncIterator()
        let held = server.holdNextRequest(of: 1)
        let run = Task { await outbox.resume() }
        await held.requested()
        guard case .confirmed(let confirmed)? = await events.next() else {
            Issue.record("contact 3's mutation confirmed while contact 1's request is held")
            return
        }
        #expect(confirmed.elementKey == "3", "another scope goes alongside")
        #expect(await server.phone(of: 2) == "two", "contact 2's waits behind contact 1's: they share a scope")
        held.release()
        await run.value
        #expect(await server.keys == [keys[2], keys[0], keys[1]], "the scope's in the order performed")
        #expect(try await outbox.pendingCount() == 0)
    }

    @Test func anElementsMutationsInTwoScopesTieThemIntoOneOrder() async throws {
        try await outbox.perform(ScopedPhone(id: 1, phone: "a", scope: "x"))
        try await outbox.perform(ScopedPhone(id: 2, phone: "b", scope: "y"))
        try await outbox.perform(ScopedPhone(id: 1, phone: "c", scope: "y"))
        try await outbox.perform(ScopedPhone(id: 3, phone: "d", scope: nil))
        let keys = try await outbox.pendingMutations().map(\.idempotencyKey)
        var events = outbox.outcomes.makeAsyncIterator()
        let held = server.holdNextRequest(of: 1)
        let run = Task { await outbox.resume() }
        await held.requested()
        guard case .confirmed(let confirmed)? = await events.next() else {
            Issue.record("contact 3's mutation confirmed while contact 1's first request is held")
            return
        }
        #expect(confirmed.elementKey == "3")
        #expect(await server.phone(of: 2) == "two", "scope y's first waits: contact 1's second is in y too")
        held.release()
        await run.value
        #expect(await server.keys == [keys[3], keys[0], keys[1], keys[2]], "one order for x, y and contact 1")
        #expect(await server.phone(of: 1) == "c")
    }

    @Test func withoutAScopeEachElementsGoAlongsideTheOthers() async throws {
        try await outbox.perform(ScopedPhone(id: 1, phone: "a", scope: nil))
        try await outbox.perform(ScopedPhone(id: 2, phone: "b", scope: nil))
        var events = outbox.outcomes.makeAsyncIterator()
        let held = server.holdNextRequest(of: 1)
        let run = Task { await outbox.resume() }
        await held.requested()
        guard case .confirmed(let confirmed)? = await events.next() else {
            Issue.record("contact 2's mutation confirmed while contact 1's request is held")
            return
        }
        #expect(confirmed.elementKey == "2")
        held.release()
        await run.value
        #expect(await server.phone(of: 1) == "a")
    }
}
