import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import Foundation
import Testing

/// Two element stores of one type made over one `DiskCache` (two features that each make
/// their own) are one store to their readers: a save or removal through either reaches every
/// list, detail and paging model over both, as it does over one.
extension ElementStoreTests {
    @Test func aSaveThroughOneStoreReachesTheListsDetailsAndPagingModelsOverAnother() async throws {
        let disk = try DiskCache(.file(path: path))
        let (first, second) = (ElementStore<Contact>(disk: disk), ElementStore<Contact>(disk: disk))
        let lists = KeyedRepository<String, [Contact]>(elements: first) { key in Self.lists[key] ?? [] }
        let details = KeyedRepository<Int, Contact>(elements: first) { id in Contact(id: id, phone: "fetched") }
        let feed = PagingListViewModel<Void, Contact, String>(
            source: .persisted(in: first, key: "feed") { _, _ in
                .modified(Page(items: Self.lists["all"] ?? [], nextCursor: nil), Validators())
            })
        try await lists.refresh("all")
        try await details.refresh(2)
        await feed.refresh().completed()
        var events = lists.events(for: "all", policy: .returnCacheDontLoad).makeAsyncIterator()
        #expect(await events.next()?.cachedValue?.value.map(\.phone) == ["one", "two", "three"])

        try await second.save(Contact(id: 2, phone: "edited"))
        #expect(await events.next()?.cachedValue?.value.map(\.phone) == ["one", "edited", "three"], "a live reader")
        #expect(
            try await lists.value(for: "all", policy: .returnCacheDontLoad)?.value.map(\.phone)
                == ["one", "edited", "three"])
        #expect(try await details.value(for: 2, policy: .returnCacheDontLoad)?.value.phone == "edited")
        #expect(feed.items.map(\.phone) == ["one", "edited", "three"], "the paging model, before the save returned")

        try await second.remove(id: 1)
        #expect(try await lists.value(for: "all", policy: .returnCacheDontLoad)?.value.map(\.id) == [2, 3])
        #expect(feed.items.map(\.id) == [2, 3])
    }
}
