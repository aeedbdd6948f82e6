import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import Foundation
import KitTestSupport
import Testing

/// Two connections to one file (two processes, an app and its extension; here two
/// `DiskCache`s), or two repositories on one: a fetch in one keeps the writes the other made
/// after it started, and only those. What the other wrote before it is no write since the
/// fetch started, however far behind this connection's own versions are.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct FetchAcrossConnectionsTests {
    typealias Contact = ElementStoreTests.Contact

    let path: String
    let server = ContactServer([Contact(id: 1, phone: "one"), Contact(id: 2, phone: "two")])
    let catalog = PagedCatalog(count: 6, pageSize: 3)
    /// The app's store and the extension's, over one file, both opened before either writes.
    let app: ElementStore<Contact>
    let other: ElementStore<Contact>

    init() throws {
        path = try temporaryCachePath()
        app = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        other = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
    }

    func lists(over store: ElementStore<Contact>, gate: PagedCatalog.Gate? = nil) -> KeyedRepository<String, [Contact]>
    {
        let server = server
        return KeyedRepository(elements: store) { _ in
            if let gate {
                gate.arrived.resolve(())
                await gate.released.wait()
            }
            return try await server.all()
        }
    }

    @Test func aListFetchedAfterAnotherConnectionWroteItsElementsStoresWhatItFetched() async throws {
        try await lists(over: other).refresh("all")
        await server.setPhone(of: 1, to: "ONE")

        let lists = lists(over: app)
        try await lists.refresh("all")
        #expect(try await lists.value(for: "all", policy: .returnCacheDontLoad)?.value.map(\.phone) == ["ONE", "two"])
        #expect(try await app.element(id: 1)?.phone == "ONE", "the file holds what was fetched")
    }

    @Test func aPageFetchedAfterAnotherConnectionWroteItsElementsShowsWhatItFetched() async throws {
        let catalog = catalog
        try await KeyedRepository<String, [Contact]>(elements: other) { _ in catalog.contacts }.refresh("all")
        catalog.update(1, phone: "ONE")

        let feed = PagingListViewModel(
            source: .persisted(in: app, key: "feed") { cursor, validators in
                try await catalog.page(cursor, validators: validators)
            })
        await feed.refresh().completed()
        #expect(feed.items.map(\.phone) == ["0", "ONE", "2"])
        #expect(try await app.element(id: 1)?.phone == "ONE", "the file holds what was fetched")
    }

    @Test func aDetailFetchedAfterAnotherConnectionWroteTheElementStoresWhatItFetched() async throws {
        // NB: the fetch reads the row's validators before its request: a read of another
        // connection's write is no write of this one since the fetch started.
        try await lists(over: other).refresh("all")
        await server.setPhone(of: 1, to: "ONE")

        let server = server
        let details = KeyedRepository<Int, Contact>(elements: app) { id in try await server.contact(id).0 }
        try await details.refresh(1)
        #expect(try await details.value(for: 1, policy: .returnCacheDontLoad)?.value.phone == "ONE")
        #expect(try await app.element(id: 1)?.phone == "ONE", "the file holds what was fetched")
    }

    @Test func anInvalidationMarksStaleWhatAnotherConnectionWroteBeforeIt() async throws {
        // NB: this connection never read the value: it learns the file's versions when it
        // invalidates, not only those it has seen.
        let invalidating = KeyedRepository<String, String>(disk: try DiskCache(.file(path: path))) { _ in "fetched" }
        let saving = KeyedRepository<String, String>(disk: try DiskCache(.file(path: path))) { _ in "other" }
        try await saving.save("saved before", for: "k")

        invalidating.invalidate("k")
        let before = try await invalidating.value(for: "k", policy: .returnCacheDontLoad)
        #expect(before?.value == "saved before")
        #expect(before?.isStale == true, "written before the invalidation")

        try await saving.save("saved after", for: "k")
        invalidating.memory.removeAll()
        let after = try await invalidating.value(for: "k", policy: .returnCacheDontLoad)
        #expect(after?.value == "saved after")
        #expect(after?.isStale == false, "written after the invalidation")
    }

    @Test func anInvalidationOfAListMarksStaleTheListAnotherConnectionWroteBeforeIt() async throws {
        try await lists(over: other).refresh("all")
        let lists = lists(over: app)

        lists.invalidate("all")
        let read = try await lists.value(for: "all", policy: .returnCacheDontLoad)
        #expect(read?.value.map(\.phone) == ["one", "two"])
        #expect(read?.isStale == true, "written before the invalidation")
    }

    @Test func aSaveByAnotherConnectionAfterAFetchStartedIsKept() async throws {
        let gate = PagedCatalog.Gate()
        let lists = lists(over: app, gate: gate)
        let fetch = Task { try await lists.refresh("all") }
        await gate.requested()

        try await other.save(Contact(id: 1, phone: "saved"))
        gate.release()
        _ = try await fetch.value
        #expect(try await app.element(id: 1)?.phone == "saved", "the save came after the fetch started: it wins")
        #expect(
            try await lists.value(for: "all", policy: .returnCacheDontLoad)?.value.map(\.phone) == ["saved", "two"])
    }

    @Test func aSaveByAnotherConnectionAfterAPageFetchStartedIsKept() async throws {
        let catalog = catalog
        let feed = PagingListViewModel<Void, Contact, String>(
            source: .persisted(in: app, key: "feed") { cursor, validators in
                try await catalog.page(cursor, validators: validators)
            })
        await feed.refresh().completed()
        let gate = catalog.holdNextRequest()
        let page = feed.loadNextPage()
        await gate.requested()

        try await other.save(Contact(id: 4, phone: "saved"))
        gate.release()
        await page.settled()
        #expect(feed.items.map(\.id) == Array(0..<6))
        #expect(try await app.element(id: 4)?.phone == "saved", "the save came after the fetch started: it wins")
        #expect(feed.items.first { $0.id == 4 }?.phone == "saved", "the page shows the row it kept")
    }

    @Test(arguments: [false, true])
    func aSaveOfAKeyByAnotherRepositoryAfterAFetchStartedIsKept(onAnotherConnection: Bool) async throws {
        let disk = try DiskCache(.file(path: path))
        let gate = PagedCatalog.Gate()
        let fetching = KeyedRepository<String, String>(disk: disk) { _ in
            gate.arrived.resolve(())
            await gate.released.wait()
            return "fetched"
        }
        let saving = KeyedRepository<String, String>(
            disk: onAnotherConnection ? try DiskCache(.file(path: path)) : disk
        ) { _ in "fetched by the other" }
        let fetch = Task { try await fetching.refresh("k") }
        await gate.requested()

        try await saving.save("saved", for: "k")
        gate.release()
        _ = try await fetch.value
        #expect(fetching.cachedValue(for: "k")?.value == "saved", "the save came after the fetch started: it wins")
        let relaunched = KeyedRepository<String, String>(disk: try DiskCache(.file(path: path))) { _ in "relaunched" }
        #expect(try await relaunched.value(for: "k", policy: .returnCacheDontLoad)?.value == "saved", "in the file")
    }

    @Test func aFetchOfAKeyAnotherRepositorySavedBeforeItStartedStoresWhatItFetched() async throws {
        let disk = try DiskCache(.file(path: path))
        try await KeyedRepository<String, String>(disk: try DiskCache(.file(path: path))) { _ in "other" }
            .save("saved", for: "k")
        let fetching = KeyedRepository<String, String>(disk: disk) { _ in "fetched" }
        try await fetching.refresh("k")
        #expect(fetching.cachedValue(for: "k")?.value == "fetched")
        let relaunched = KeyedRepository<String, String>(disk: try DiskCache(.file(path: path))) { _ in "relaunched" }
        #expect(try await relaunched.value(for: "k", policy: .returnCacheDontLoad)?.value == "fetched")
    }

    @Test func aSaveByAnotherRepositoryAfterARevalidationStartedOutlivesIts304() async throws {
        let disk = try DiskCache(.file(path: path))
        let gate = Locked<PagedCatalog.Gate?>(nil)
        let fetching = KeyedRepository<String, String>(disk: disk) { _, validators in
            if let held = gate.withLock({ $0 }) {
                held.arrived.resolve(())
                await held.released.wait()
            }
            return validators.entityTag == "v1"
                ? .notModified(Validators(entityTag: "v1")) : .modified("fetched", Validators(entityTag: "v1"))
        }
        try await fetching.refresh("k")
        let held = PagedCatalog.Gate()
        gate.withLock { $0 = held }
        let fetch = Task { try await fetching.refresh("k") }
        await held.requested()

        try await KeyedRepository<String, String>(disk: try DiskCache(.file(path: path))) { _ in "other" }
            .save("saved", for: "k")
        held.release()
        _ = try await fetch.value
        #expect(fetching.cachedValue(for: "k")?.value == "saved", "the save came after the revalidation started")
        let relaunched = KeyedRepository<String, String>(disk: try DiskCache(.file(path: path))) { _ in "relaunched" }
        #expect(try await relaunched.value(for: "k", policy: .returnCacheDontLoad)?.value == "saved", "in the file")

        // NB: the save is held without the fetched value's entity tag: a fetch after it is no 304.
        gate.withLock { $0 = nil }
        try await fetching.refresh("k")
        #expect(fetching.cachedValue(for: "k")?.value == "fetched", "a fetch that started after the save")
    }
}
