import ContentLoading
import ContentLoadingRepository
import Foundation
import Testing

/// A mutation of an element the store does not hold: sent without a server value or an edited
/// copy, shown nowhere, its answer not stored; the next fetch that brings the element shows it.
extension OutboxTests {
    @Test func aMutationOfAnElementTheStoreDoesNotHoldIsSentAndItsAnswerWaitsForAFetch() async throws {
        let (store, lists, outbox) = try launch(mutations: [PutContact.self])
        try await lists.refresh("all")
        var events = outbox.outcomes.makeAsyncIterator()

        try await outbox.perform(PutContact(id: 7, phone: "seven"))
        #expect(try await store.element(id: 7) == nil, "nothing to show it over")
        #expect(try await phones(lists) == ["one", "two"])
        guard case .confirmed? = await events.next() else {
            Issue.record("sent without a server value or an edited copy, and confirmed")
            return
        }
        #expect(await server.phone(of: 7) == "seven")
        #expect(try await store.element(id: 7) == nil, "the answer is not stored: nothing over the store holds 7")
        #expect(try await outbox.pendingCount() == 0)

        try await lists.refresh("all")
        #expect(try await phones(lists) == ["one", "two", "seven"])
        #expect(try await store.element(id: 7)?.phone == "seven")
    }
}

/// Puts a contact whole, made from its own properties (as an app creating one would); refuses
/// to go when the store gave it a copy to edit.
struct PutContact: Mutation {
    struct GivenACopy: Error {}

    let id: Int
    let phone: String
    var elementID: Int { id }
    func apply(to contact: inout ElementStoreTests.Contact) { contact.phone = phone }
    func send(using server: ContactServer, context: MutationContext<ElementStoreTests.Contact>) async throws
        -> MutationResult<ElementStoreTests.Contact>
    {
        guard context.serverValue == nil, context.edited == nil else { throw GivenACopy() }
        return try await server.put(
            ElementStoreTests.Contact(id: id, phone: phone), key: context.idempotencyKey, rejecting: false)
    }
}
