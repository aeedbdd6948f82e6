import ContentLoadingRepository
import Foundation
import SellerContacts

/// What removing one element costs over saving one: a list of `count` contacts over an element
/// store in a file, with one live reader, losing one contact (`ElementStore.remove(id:)`) or
/// having one changed (`ElementStore.save(_:)`), until the reader has it.
@MainActor
public final class RemovalScenario {
    let store: ElementStore<SellerContacts>
    let lists: KeyedRepository<String, [SellerContacts]>
    let reader: AsyncStream<CacheEvent<[SellerContacts]>>.Iterator
    var removed = 0
    var saved = 0
    let count: Int

    /// A list of `count` contacts saved over an element store in a fresh file, and its reader.
    public init(count: Int) async throws {
        self.count = count
        let path = try ScratchFolder.make("removals").appendingPathComponent("contacts.sqlite").path
        store = ElementStore(disk: try DiskCache(.file(path: path)))
        lists = KeyedRepository(elements: store) { _ in [] }
        try await lists.save(SQLiteScenario.contacts(count), for: "all")
        var reader = lists.events(for: "all", policy: .returnCacheDontLoad).makeAsyncIterator()
        _ = await reader.next(isolation: #isolation)
        self.reader = reader
    }

    /// One contact removed (from the end of the list down), then the reader's next value.
    public func remove() async throws {
        removed += 1
        let id = count - removed
        try await store.remove(id: id)
        // NB: checks that cost nothing beside what they check: the last contacts go first.
        try await readerGets { $0.count == id && $0.last?.id == id - 1 }
    }

    /// One contact changed (from the start of the list up), then the reader's next value.
    public func save() async throws {
        saved += 1
        let contact = SellerContacts(address: "Saved \(saved)", order: saved, phone: nil)
        try await store.save(contact)
        try await readerGets { $0.indices.contains(saved) && $0[saved] == contact }
    }

    private func readerGets(_ check: ([SellerContacts]) -> Bool) async throws {
        // NB: the iterator is a reference to the stream's buffer; the copy reads the same one.
        var reader = reader
        guard case .value(let list)? = await reader.next(isolation: #isolation), check(list.value) else {
            fatalError("removals: the reader did not get the change")
        }
    }
}
