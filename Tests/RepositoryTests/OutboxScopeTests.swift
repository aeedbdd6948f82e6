import ContentLoading
import ContentLoadingRepository
import Foundation
import KitTestSupport
import Testing

/// Scopes: mutations that share a ``Mutation/scope`` are sent one at a time, in the order
/// performed, across elements; those of other elements and scopes go side by side.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
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

    /// Performs `mutations` and runs the queue with contact 1's first request held: `check`
    /// gets the element whose mutation was confirmed first meanwhile; the request is released
    /// after it, and the run awaited. Returns the mutations' keys, in the order performed.
    func run(_ mutations: [ScopedPhone], whileContact1IsHeld check: (String?) async -> Void) async throws
        -> [String]
    {
        for mutation in mutations { try await outbox.perform(mutation) }
        let keys = try await outbox.pendingMutations().map(\.idempotencyKey)
        var events = outbox.outcomes.makeAsyncIterator()
        let held = server.holdNextRequest(of: 1)
        let run = Task { await outbox.resume() }
        await held.requested()
        guard case .confirmed(let confirmed)? = await events.next() else {
            Issue.record("no mutation confirmed while contact 1's request is held")
            held.release()
            await run.value
            return keys
        }
        await check(confirmed.elementKey)
        held.release()
        await run.value
        return keys
    }

    @Test func aScopesMutationsGoOneAtATimeInOrderAcrossElementsAndOtherScopesGoAlongside() async throws {
        let keys = try await run([
            ScopedPhone(id: 1, phone: "a", scope: "profile"), ScopedPhone(id: 2, phone: "b", scope: "profile"),
            ScopedPhone(id: 3, phone: "c", scope: nil),
        ]) { confirmed in
            #expect(confirmed == "3", "another scope goes alongside")
            #expect(await server.phone(of: 2) == "two", "contact 2's waits behind contact 1's: they share a scope")
        }
        #expect(await server.keys == [keys[2], keys[0], keys[1]], "the scope's in the order performed")
        #expect(try await outbox.pendingCount() == 0)
    }

    @Test func anElementsMutationsInTwoScopesTieThemIntoOneOrder() async throws {
        let keys = try await run([
            ScopedPhone(id: 1, phone: "a", scope: "x"), ScopedPhone(id: 2, phone: "b", scope: "y"),
            ScopedPhone(id: 1, phone: "c", scope: "y"), ScopedPhone(id: 3, phone: "d", scope: nil),
        ]) { confirmed in
            #expect(confirmed == "3")
            #expect(await server.phone(of: 2) == "two", "scope y's first waits: contact 1's second is in y too")
        }
        #expect(await server.keys == [keys[3], keys[0], keys[1], keys[2]], "one order for x, y and contact 1")
        #expect(await server.phone(of: 1) == "c")
    }

    @Test func withoutAScopeEachElementsGoAlongsideTheOthers() async throws {
        _ = try await run([ScopedPhone(id: 1, phone: "a", scope: nil), ScopedPhone(id: 2, phone: "b", scope: nil)]) {
            #expect($0 == "2")
        }
        #expect(await server.phone(of: 1) == "a")
    }
}
