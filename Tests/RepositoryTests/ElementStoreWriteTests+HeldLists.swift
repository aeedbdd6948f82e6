import ContentLoading
import ContentLoadingRepository
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

extension ElementStoreWriteTests {
    /// A list held in memory is edited by an element save in place (not written whole): a fetch
    /// of it that started before the save still stores what it got (new members, a new order),
    /// with the saved element kept in it, as it does for a list only the file holds.
    @Test func aListFetchThatStartedBeforeAnElementSaveStillStoresAListMemoryHolds() async throws {
        let store = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        let loader = ControlledLoader<String, [Contact]>()
        let lists = KeyedRepository<String, [Contact]>(elements: store, fetch: loader.load)
        try await lists.save([Contact(id: 1, phone: "one")], for: "all")
        let reader = record(lists.events(for: "all", policy: .returnCacheDontLoad))
        _ = try await reader.values(count: 1)
        let refresh = Task { try await lists.refresh("all") }
        let fetch = try await loader.call(0)
        try await store.save(Contact(id: 1, phone: "SAVED"))
        let edited = try await reader.values(count: 2).last?.cachedValue?.value
        #expect(edited?.map(\.phone) == ["SAVED"], "the save edits the list in memory")

        loader.complete(fetch, returning: [Contact(id: 2, phone: "two"), Contact(id: 1, phone: "stale")])
        #expect(try await refresh.value == .updated, "the fetch got a new member: it is stored")
        let delivered = try await reader.values(count: 3).last?.cachedValue?.value
        #expect(delivered?.map(\.phone) == ["two", "SAVED"], "the readers get it, the save kept")
        let held = try await lists.value(for: "all", policy: .returnCacheDontLoad)?.value
        #expect(held?.map(\.phone) == ["two", "SAVED"])
        #expect(try await store.element(id: 1)?.phone == "SAVED", "the file keeps the save")
    }
}
