import ContentLoadingRepository
import Foundation
import KitTestSupport
import Testing

/// A mutation must read back from the file as itself: its pending mutations are read back to
/// show an element, and to send them. One whose type the outbox was not given, or whose
/// stored name another type given has, was stored, never shown, and set aside by the queue:
/// the edit was lost without a word. `perform` refuses it, storing nothing.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct OutboxMutationTypeTests {
    typealias Contact = ElementStoreTests.Contact

    let server = ContactServer([Contact(id: 1, phone: "one")])
    let store: ElementStore<Contact>

    init() async throws {
        store = ElementStore<Contact>(disk: try DiskCache(.file(path: try temporaryCachePath())))
        try await store.save(Contact(id: 1, phone: "one"))
    }

    @Test func aMutationOfATypeTheOutboxWasNotGivenIsRefused() async throws {
        let outbox = Outbox(store: store, environment: server, mutations: [AppendToPhone.self], isPaused: true)
        let error = await #expect(throws: CacheError.self) { try await outbox.perform(Clear(id: 1)) }
        #expect(error?.operation == "perform a mutation of")
        #expect(error?.reason == "Clear is not one of the outbox's mutation types (give it in `mutations:`)")
        #expect(try await outbox.pendingCount() == 0, "nothing stored")
        #expect(try await store.element(id: 1)?.phone == "one")
    }

    @Test func aMutationWhoseStoredNameAnotherTypeHasIsRefused() async throws {
        let outbox = Outbox(
            store: store, environment: server, mutations: [AppendToPhone.self, Prepend.self], isPaused: true)
        let error = await #expect(throws: CacheError.self) { try await outbox.perform(Prepend(id: 1, prefix: "+")) }
        #expect(
            error?.reason
                == "Prepend is stored under the name \(AppendToPhone.mutationName), which AppendToPhone has too: "
                + "give one of them a mutationName of its own")
        #expect(try await outbox.pendingCount() == 0, "nothing stored")

        // NB: the type given first has the name: its mutations read back as themselves.
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a"))
        #expect(try await store.element(id: 1)?.phone == "one+a")
        await outbox.resume()
        #expect(await server.phone(of: 1) == "one+a")
    }
}

/// A mutation type no outbox here is given.
private struct Clear: Mutation {
    let id: Int
    var elementID: Int { id }
    func apply(to contact: inout ElementStoreTests.Contact) { contact.phone = "" }
    func send(using server: ContactServer, context: MutationContext<ElementStoreTests.Contact>) async throws
        -> MutationResult<ElementStoreTests.Contact>
    {
        try await server.put(context.edited, key: context.idempotencyKey, ifMatch: context.entityTag, rejecting: false)
    }
}

/// A mutation type stored under `AppendToPhone`'s name.
private struct Prepend: Mutation {
    static var mutationName: String { AppendToPhone.mutationName }
    let id: Int
    let prefix: String
    var elementID: Int { id }
    func apply(to contact: inout ElementStoreTests.Contact) { contact.phone = prefix + contact.phone }
    func send(using server: ContactServer, context: MutationContext<ElementStoreTests.Contact>) async throws
        -> MutationResult<ElementStoreTests.Contact>
    {
        try await server.put(context.edited, key: context.idempotencyKey, ifMatch: context.entityTag, rejecting: false)
    }
}
