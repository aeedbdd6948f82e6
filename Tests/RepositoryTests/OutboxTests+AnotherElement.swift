import ContentLoading
import ContentLoadingRepository
import Foundation
import Testing

/// A mutation whose answer is another element (a server, or a `send`, that answered with the
/// wrong record): it cannot become the edited element's server value. The mutation is rejected
/// with an error naming the file, the element and the answer's id, and rolled back; nothing of
/// the answer is stored.
extension OutboxTests {
    @Test func anAnswerThatIsAnotherElementRejectsTheMutationNamingItAndStoresNothingOfIt() async throws {
        let (store, lists, outbox) = try launch(mutations: [AnswerWithTheNext.self], isPaused: true)
        try await lists.refresh("all")
        try await outbox.perform(AnswerWithTheNext(id: 1))
        var events = outbox.outcomes.makeAsyncIterator()
        await outbox.resume()
        guard case .rejected(_, let error as CacheError)? = await events.next() else {
            Issue.record("the mutation is rejected with a cache error")
            return
        }
        #expect(error.path == path)
        #expect(error.key.hasSuffix(" 1"), "\(error)")
        #expect(error.reason.contains("the answer is the element 2, not the one edited"), "\(error)")
        #expect(try await phones(lists) == ["one", "two"], "rolled back; the other element untouched")
        #expect(try await store.element(id: 2)?.phone == "two")
        #expect(try await outbox.pendingCount() == 0)
    }
}

/// Sets a contact's phone to "edited", and answers with the next contact.
struct AnswerWithTheNext: Mutation {
    let id: Int
    var elementID: Int { id }
    func apply(to contact: inout ElementStoreTests.Contact) { contact.phone = "edited" }
    func send(using server: ContactServer, context: MutationContext<ElementStoreTests.Contact>) async throws
        -> MutationResult<ElementStoreTests.Contact>
    {
        MutationResult(value: ElementStoreTests.Contact(id: id + 1, phone: "answered for \(id)"), entityTag: "v9")
    }
}
