import ContentLoadingRepository
import Foundation
import SellerContacts

/// C4: one element saved into a list of `count` elements with one live reader, until the
/// reader has the new list.
@MainActor
public final class ElementSaveScenario {
    let count: Int
    let lists: KeyedRepository<String, [SellerContacts]>
    let reader: AsyncStream<CacheEvent<[SellerContacts]>>.Iterator
    let store: SQLiteStore<SellerContacts>
    let observer: AsyncStream<[SellerContacts]>.Iterator
    var edits = 0
    /// The list the reader got last, when it keeps it (as a view model showing it does).
    var kept: [SellerContacts]?

    /// A list of `count` contacts in the kit's keyed repository (memory tier) and, for today's
    /// approach, in a `SQLiteStore` with an observer.
    public init(count: Int) async throws {
        self.count = count
        let contacts = SQLiteScenario.contacts(count)
        lists = KeyedRepository { _ in contacts }
        try await lists.save(contacts, for: "all")
        var reader = lists.events(for: "all", policy: .returnCacheDontLoad).makeAsyncIterator()
        _ = await reader.next(isolation: #isolation)
        self.reader = reader
        store = try SQLiteStore<SellerContacts>(.file(path: try SQLiteScenario.freshPath()))
        try await store.replaceAll(with: contacts, syncedAt: Date())
        var observer = try await store.observe().makeAsyncIterator()
        _ = await observer.next(isolation: #isolation)
        self.observer = observer
    }

    private func edited() -> SellerContacts {
        edits += 1
        return SellerContacts(address: "Edit \(edits)", order: count / 2, phone: nil)
    }

    /// The kit: `save(element:)`, then the reader's next value. `keepingTheList`: the reader
    /// holds each list it gets until the next, so the save must copy it.
    public func kit(keepingTheList: Bool = false) async throws {
        try await lists.save(element: edited())
        // NB: the iterator is a reference to the stream's buffer; the copy reads the same one.
        var reader = reader
        guard case .value(let list)? = await reader.next(isolation: #isolation),
            list.value[count / 2].address == "Edit \(edits)"
        else {
            fatalError("C4: the reader did not get the edit")
        }
        kept = keepingTheList ? list.value : nil
    }

    /// Today's approach: write the element into the store, then the observer's re-read table.
    public func store() async throws {
        try await store.write([edited()])
        var observer = observer
        guard let list = await observer.next(isolation: #isolation), list[count / 2].address == "Edit \(edits)" else {
            fatalError("C4: the observer did not get the edit")
        }
    }
}
