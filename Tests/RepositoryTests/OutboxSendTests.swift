import ContentLoading
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

@testable import ContentLoadingRepository

/// `Outbox.send()` returns once the queue's run has ended and its confirmations have reached
/// every repository and paging model over the store, as "In a test, await the send" (the
/// Offline edits article) tells a test to rely on: `perform` returns before an outbox that is
/// not paused sends the mutation, from a task of its own.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct OutboxSendTests {
    typealias Contact = ElementStoreTests.Contact

    @Test func aTestThatAwaitsTheSendSeesTheServersAnswerInEveryReader() async throws {
        let catalog = PagedCatalog(count: 3, pageSize: 3)
        let store = ElementStore<Contact>(disk: try DiskCache(.inMemory))
        // NB: a slow listener, heard before the readers below: each change reaches them late.
        store.listen { _ in
            for _ in 0..<50 { await Task.yield() }
            return true
        }
        let lists = KeyedRepository<String, [Contact]>(elements: store) { _ in catalog.contacts }
        let feed = PersistedPagingTests.feed(over: store, key: "feed", catalog: catalog)
        try await lists.refresh("all")
        await feed.refresh().completed()
        let outbox = Outbox(store: store, environment: catalog, mutations: [CatalogPhone.self])

        // NB: stamped by the server: its answer is not the edit.
        try await outbox.perform(CatalogPhone(id: 1, phone: "edited", stamp: "(stamped)"))
        await outbox.send()

        let answered = ["0", "edited (stamped)", "2"]
        #expect(catalog.contacts.map(\.phone) == answered)
        #expect(feed.items.map(\.phone) == answered, "the paging model has the server's answer")
        let list = try await lists.value(for: "all", policy: .returnCacheDontLoad)?.value
        #expect(list?.map(\.phone) == answered, "so has the list")
    }
}
