import ContentLoadingRepository
import ContentLoadingSupport
import Foundation
import Testing

/// A detail fetched or saved for one id that is another element (a server that answered with
/// the wrong record): stored under the id it was asked for, every list holding that id would
/// show the other element. It is an error naming the file and the id, and nothing is stored.
extension ElementStoreTests {
    @Test func aDetailThatIsAnotherElementIsAnErrorAndNothingIsStored() async throws {
        let store = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        let lists = KeyedRepository<String, [Contact]>(elements: store) { _ in Self.lists["all"]! }
        let details = KeyedRepository<Int, Contact>(elements: store) { id in Contact(id: id + 1, phone: "wrong") }
        try await lists.refresh("all")

        var events = details.events(for: 2, policy: .reloadIgnoringCache).makeAsyncIterator()
        guard case .error(let error as CacheError)? = await events.next() else {
            Issue.record("the fetch's write is an error")
            return
        }
        #expect(error.path == path)
        #expect(error.key.hasSuffix(" 2"), "\(error)")
        #expect(error.reason.contains("the element 3, not this one"), "\(error)")
        #expect(try await store.element(id: 2) == Contact(id: 2, phone: "two"), "the row the list wrote stays")
        #expect(
            try await lists.value(for: "all", policy: .returnCacheDontLoad)?.value.map(\.phone) == [
                "one", "two", "three",
            ])

        do {
            try await details.save(Contact(id: 3, phone: "saved as 2"), for: 2)
            Issue.record("a save of another element for the id throws")
        } catch let error as CacheError {
            #expect(error.reason.contains("the element 3, not this one"), "\(error)")
        }
        #expect(try await store.element(id: 2) == Contact(id: 2, phone: "two"))
    }
}
