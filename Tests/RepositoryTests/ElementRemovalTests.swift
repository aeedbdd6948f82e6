import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import Foundation
import KitTestSupport
import Testing

/// Removals win over fetches that started before them: a list or page fetched before an
/// element was removed (through any repository over the store, or through another connection
/// to the file) does not bring it back, in memory or in the file. A fetch that started after
/// the removal, or a save after it, does.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct ElementRemovalTests {
    typealias Contact = ElementStoreTests.Contact

    let path: String
    let catalog = PagedCatalog(count: 6, pageSize: 3)
    let store: ElementStore<Contact>

    init() throws {
        path = try temporaryCachePath()
        store = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
    }

    func rows(_ sql: String) throws -> [String] { try sqlRows(sql, in: path) }

    /// Lists of the catalog's first three contacts; each fetch waits at `gate` when one is set.
    func lists(over store: ElementStore<Contact>, gate: Locked<PagedCatalog.Gate?>) -> KeyedRepository<
        String, [Contact]
    > {
        let catalog = catalog
        return KeyedRepository(elements: store) { _ in
            if let held = gate.withLock({ $0 }) {
                held.arrived.resolve(())
                await held.released.wait()
            }
            return Array(catalog.contacts.prefix(3))
        }
    }

    /// `remove` runs while a fetch of the list "new" (its readers and the file have never held
    /// it) is under way; then the fetch ends.
    func fetchOfNew(
        over lists: KeyedRepository<String, [Contact]>, gate: Locked<PagedCatalog.Gate?>,
        around remove: () async throws -> Void
    ) async throws -> [Contact] {
        let held = PagedCatalog.Gate()
        gate.withLock { $0 = held }
        let fetch = Task { try await lists.refresh("new") }
        await held.requested()
        try await remove()
        gate.withLock { $0 = nil }
        held.release()
        _ = try await fetch.value
        return try #require(try await lists.value(for: "new", policy: .returnCacheDontLoad)?.value)
    }

    @Test(arguments: ["this store", "another repository", "another connection"])
    func aListFetchThatStartedBeforeARemovalLeavesTheElementOut(removedThrough: String) async throws {
        let gate = Locked<PagedCatalog.Gate?>(nil)
        let lists = lists(over: store, gate: gate)
        try await lists.refresh("first")
        let other = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        let details = KeyedRepository<Int, Contact>(elements: store) { id in Contact(id: id, phone: "detail") }

        let shown = try await fetchOfNew(over: lists, gate: gate) {
            switch removedThrough {
            case "this store": try await store.remove(id: 1)
            case "another repository": try await details.remove(1)
            default: try await other.remove(id: 1)
            }
        }
        #expect(shown.map(\.id) == [0, 2], "the readers do not get it back")
        #expect(try await store.element(id: 1) == nil, "nor does the file")
        let relaunched = self.lists(over: ElementStore<Contact>(disk: try DiskCache(.file(path: path))), gate: gate)
        #expect(try await relaunched.value(for: "new", policy: .returnCacheDontLoad)?.value.map(\.id) == [0, 2])
        #expect(try await relaunched.value(for: "first", policy: .returnCacheDontLoad)?.value.map(\.id) == [0, 2])

        try await lists.refresh("new")
        #expect(
            try await lists.value(for: "new", policy: .returnCacheDontLoad)?.value.map(\.id) == [0, 1, 2],
            "a fetch that started after the removal brings it back")
        #expect(try await store.element(id: 1)?.phone == "1")
    }

    @Test func anElementSavedAfterTheRemovalIsKeptByAFetchThatStartedBeforeBoth() async throws {
        let gate = Locked<PagedCatalog.Gate?>(nil)
        let lists = lists(over: store, gate: gate)
        try await lists.refresh("first")
        let shown = try await fetchOfNew(over: lists, gate: gate) {
            try await store.remove(id: 1)
            try await store.save(Contact(id: 1, phone: "saved"))
        }
        #expect(shown.map(\.phone) == ["0", "saved", "2"])
        #expect(try await store.element(id: 1)?.phone == "saved")
    }

    @Test func aRemovalOfEveryElementIsKeptByAFetchThatStartedBeforeIt() async throws {
        let gate = Locked<PagedCatalog.Gate?>(nil)
        let lists = lists(over: store, gate: gate)
        try await lists.refresh("first")
        let details = KeyedRepository<Int, Contact>(elements: store) { id in Contact(id: id, phone: "detail") }
        let shown = try await fetchOfNew(over: lists, gate: gate) { try await details.removeAll() }
        #expect(shown.isEmpty)
        #expect(try rows("SELECT count(*) FROM content_loading_elements") == ["0"])
    }

    @Test func aPageFetchThatStartedBeforeARemovalLeavesTheElementOut() async throws {
        let catalog = catalog
        try await KeyedRepository<String, [Contact]>(elements: store) { _ in catalog.contacts }.refresh("all")
        let feed = PagingListViewModel(
            source: .persisted(in: store, key: "feed") { cursor, validators in
                try await catalog.page(cursor, validators: validators)
            })
        let held = catalog.holdNextRequest()
        let refresh = feed.refresh()
        await held.requested()
        try await store.remove(id: 1)
        held.release()
        await refresh.completed()
        #expect(feed.items.map(\.id) == [0, 2])
        #expect(try rows("SELECT count(*) FROM content_loading_elements WHERE id = '1'") == ["0"])

        catalog.isOnline = false
        let relaunched = PagingListViewModel(
            source: .persisted(in: ElementStore<Contact>(disk: try DiskCache(.file(path: path))), key: "feed") {
                cursor, validators in try await catalog.page(cursor, validators: validators)
            })
        await relaunched.refresh().completed()
        #expect(relaunched.items.map(\.id) == [0, 2], "the stored page leaves it out, with no error")
        #expect(relaunched.state.error is PagedCatalog.Offline)
    }

    @Test func aDetailFetchThatStartedBeforeAnotherConnectionRemovedTheElementKeepsTheRemoval() async throws {
        try await store.save(Contact(id: 1, phone: "saved"))
        let held = PagedCatalog.Gate()
        let gate = Locked<PagedCatalog.Gate?>(held)
        let details = KeyedRepository<Int, Contact>(elements: store) { id in
            if let held = gate.withLock({ $0 }) {
                held.arrived.resolve(())
                await held.released.wait()
            }
            return Contact(id: id, phone: "fetched")
        }
        let fetch = Task { try await details.refresh(1) }
        await held.requested()
        try await ElementStore<Contact>(disk: try DiskCache(.file(path: path))).remove(id: 1)
        gate.withLock { $0 = nil }
        held.release()
        _ = try await fetch.value
        #expect(try await details.value(for: 1, policy: .returnCacheDontLoad) == nil, "the removal stands")
        #expect(try await store.element(id: 1) == nil, "in the file too")

        try await details.refresh(1)
        #expect(
            try await details.value(for: 1, policy: .returnCacheDontLoad)?.value.phone == "fetched",
            "a fetch that started after the removal brings it back")
    }

    @Test func theFileRemembersTheNewestRemovalsOnlyAndNotTheRowsNoReadCouldUse() async throws {
        for id in 0..<1_005 { try await store.remove(id: id) }
        #expect(try rows("SELECT count(*) || '|' || min(id + 0) FROM content_loading_element_removals") == ["1000|5"])

        try await store.save(Contact(id: 2_000, phone: "saved"))
        try SQLiteDatabase(.file(path: path)).execute(
            "UPDATE content_loading_elements SET value = X'7B7D' WHERE id = '2000'")
        let details = KeyedRepository<Int, Contact>(elements: store) { id in Contact(id: id, phone: "detail") }
        await #expect(throws: CacheError.self) { try await details.value(for: 2_000, policy: .returnCacheDontLoad) }
        #expect(
            try rows("SELECT count(*) FROM content_loading_element_removals WHERE id = '2000'") == ["0"],
            "a row that does not decode goes, and is no removal")
    }
}
