import ContentLoadingRepository
import Foundation
import SellerContacts

/// What `update(_:_:)` costs over a save of the same list: a list of `count` contacts over an
/// element store in a file, with one live reader, changed by one appended contact. The update
/// reads the list from the file and writes it back in one transaction (so no write made
/// elsewhere is written over); the save is what an app did before it: the list memory holds,
/// appended to and saved.
@MainActor
public final class UpdateScenario {
    let lists: KeyedRepository<String, [SellerContacts]>
    let reader: AsyncStream<CacheEvent<[SellerContacts]>>.Iterator
    var added = 0
    let count: Int

    /// A list of `count` contacts saved over an element store in a fresh file, and its reader.
    public init(count: Int) async throws {
        self.count = count
        let path = try ScratchFolder.make("updates").appendingPathComponent("contacts.sqlite").path
        lists = KeyedRepository(elements: ElementStore(disk: try DiskCache(.file(path: path)))) { _ in [] }
        try await lists.save(SQLiteScenario.contacts(count), for: "all")
        var reader = lists.events(for: "all", policy: .returnCacheDontLoad).makeAsyncIterator()
        _ = await reader.next(isolation: #isolation)
        self.reader = reader
    }

    private func appended() -> SellerContacts {
        added += 1
        return SellerContacts(address: "Added \(added)", order: count + added, phone: nil)
    }

    /// `update(_:_:)` appending one contact, then the reader's next value.
    public func update() async throws {
        let contact = appended()
        try await lists.update("all") { $0.map { $0 + [contact] } }
        try await readerGets(contact)
    }

    /// The list memory holds, appended to and saved with `save(_:for:)`, then the reader's next
    /// value.
    public func save() async throws {
        let contact = appended()
        guard let list = lists.cachedValue(for: "all") else { fatalError("updates: the list is not in memory") }
        try await lists.save(list.value + [contact], for: "all")
        try await readerGets(contact)
    }

    private func readerGets(_ contact: SellerContacts) async throws {
        // NB: the iterator is a reference to the stream's buffer; the copy reads the same one.
        var reader = reader
        guard case .value(let list)? = await reader.next(isolation: #isolation), list.value.last == contact else {
            fatalError("updates: the reader did not get the appended contact")
        }
    }
}
