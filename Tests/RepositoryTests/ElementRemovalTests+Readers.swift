import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import Testing

/// A removal of an element through a details repository over the store is the store's removal:
/// every list and paging model that shows the element leaves it out at once, as they do for
/// `ElementStore.remove(id:)`, and not only after they are read again from the file.
extension ElementRemovalTests {
    /// A repository of lists and one of details over the store, and a paging model over its
    /// pages of the catalog.
    func readers() -> (
        lists: KeyedRepository<String, [Contact]>, details: KeyedRepository<Int, Contact>,
        feed: PagingListViewModel<Void, Contact, String>
    ) {
        let catalog = catalog
        let details = KeyedRepository<Int, Contact>(elements: store) { id in catalog.contacts.first { $0.id == id }! }
        let feed = PagingListViewModel(
            source: .persisted(in: store, key: "feed") { cursor, validators in
                try await catalog.page(cursor, validators: validators)
            })
        return (lists(over: store, gate: Locked(nil)), details, feed)
    }

    @Test func aRemovalThroughADetailsRepositoryReachesEveryListAndPagingModel() async throws {
        let (lists, details, feed) = readers()
        await feed.refresh().completed()
        try await lists.refresh("first")
        var reader = lists.events(for: "first", policy: .returnCacheDontLoad).makeAsyncIterator()
        #expect(await reader.next()?.cachedValue?.value.map(\.id) == [0, 1, 2])

        try await details.remove(1)
        #expect(await reader.next()?.cachedValue?.value.map(\.id) == [0, 2], "the list's reader")
        #expect(try await lists.value(for: "first", policy: .returnCacheDontLoad)?.value.map(\.id) == [0, 2])
        #expect(feed.items.map(\.id) == [0, 2], "the paging model")
        #expect(try rows("SELECT id FROM content_loading_elements ORDER BY id") == ["0", "2"])
    }

    @Test func aRemovalOfEveryElementThroughADetailsRepositoryEmptiesEveryListAndPagingModel() async throws {
        let (lists, details, feed) = readers()
        let catalog = catalog
        let other = KeyedRepository<Int, Contact>(elements: store) { id in catalog.contacts.first { $0.id == id }! }
        await feed.refresh().completed()
        try await lists.refresh("first")
        try await other.refresh(2)
        var reader = lists.events(for: "first", policy: .returnCacheDontLoad).makeAsyncIterator()
        #expect(await reader.next()?.cachedValue?.value.map(\.id) == [0, 1, 2])
        var detail = other.events(for: 2, policy: .returnCacheDontLoad).makeAsyncIterator()
        #expect(await detail.next()?.cachedValue?.value.id == 2)

        try await details.removeAll()
        #expect(await reader.next()?.cachedValue?.value.map(\.id) == [], "the list's reader")
        #expect(try await lists.value(for: "first", policy: .returnCacheDontLoad)?.value.map(\.id) == [])
        #expect(await detail.next() == .noValue, "another details repository's reader")
        #expect(try await other.value(for: 2, policy: .returnCacheDontLoad) == nil)
        #expect(feed.items.isEmpty, "the paging model")
        #expect(feed.nextPageState == .idle, "it does not load on by itself")
        #expect(try rows("SELECT count(*) FROM content_loading_elements") == ["0"])
    }
}
