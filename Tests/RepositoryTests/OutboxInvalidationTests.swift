import ContentLoading
import ContentLoadingRepository
import Foundation
import KitTestSupport
import Testing

/// A confirmed mutation invalidates the keys it names (a search the edit may change on the
/// server), in every repository over the store, and no other.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct OutboxInvalidationTests {
    typealias Contact = ElementStoreTests.Contact

    /// Appends to a phone; the server's searches may change with it.
    struct AppendInvalidatingSearches: Mutation {
        let id: Int
        let suffix: String
        var elementID: Int { id }
        var invalidatedKeyPrefixes: [String] { ["search/"] }
        func apply(to contact: inout Contact) { contact.phone += suffix }
        func send(using server: ContactServer, context: MutationContext<Contact>) async throws
            -> MutationResult<Contact>
        {
            try await server.put(context.edited, key: context.idempotencyKey, rejecting: false)
        }
    }

    @Test func aConfirmedMutationInvalidatesTheKeysWithItsPrefixesOnly() async throws {
        let server = ContactServer([Contact(id: 1, phone: "one"), Contact(id: 2, phone: "two")])
        let store = ElementStore<Contact>(disk: try DiskCache(.file(path: try temporaryCachePath())))
        let lists = KeyedRepository<String, [Contact]>(elements: store) { _ in try await server.all() }
        let outbox = Outbox(
            store: store, environment: server, mutations: [AppendInvalidatingSearches.self], isPaused: true)
        for key in ["search/o", "all"] { try await lists.refresh(key) }

        try await outbox.perform(AppendInvalidatingSearches(id: 1, suffix: "+a"))
        #expect(try await isStale("search/o", in: lists) == false, "a pending mutation invalidates nothing")

        await outbox.resume()
        #expect(try await isStale("search/o", in: lists) == true, "confirmed: the search is invalidated")
        #expect(try await isStale("all", in: lists) == false, "a key without the prefix is not")
        #expect(
            try await lists.value(for: "search/o", policy: .reloadIgnoringCache)?.value.map(\.phone) == [
                "one+a", "two",
            ])
    }

    func isStale(_ key: String, in lists: KeyedRepository<String, [Contact]>) async throws -> Bool? {
        try await lists.value(for: key, policy: .returnCacheDontLoad)?.isStale
    }
}
