import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import Foundation
import KitTestSupport
import Testing

/// An element removed through the store leaves the lists and pages that held it without their
/// validators: the server's list still holds it, so a `304` to the old validators would
/// confirm the list without it, where a full answer of the same list brings it back. Their
/// next fetch is a full one, in this process (memory) and after a relaunch (the file).
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct RemovedElementRevalidationTests {
    typealias Contact = ElementStoreTests.Contact

    let path: String
    let catalog = PagedCatalog(count: 12, pageSize: 3)
    /// The store's clock, moved on by the tests.
    let clock = Locked(Date(timeIntervalSince1970: 1_800_000_000))
    init() throws { path = try temporaryCachePath() }

    /// A store over the file on the test's clock, as an app makes it at launch.
    func launchStore() throws -> ElementStore<Contact> {
        let clock = clock
        return ElementStore<Contact>(disk: try DiskCache(.file(path: path))) { clock.withLock { $0 } }
    }

    /// Lists of the catalog's first contacts over `store`, asked for "if changed".
    func lists(over store: ElementStore<Contact>) -> KeyedRepository<String, [Contact]> {
        let catalog = catalog
        return KeyedRepository(elements: store) { _, validators in catalog.first(6, validators: validators) }
    }

    @Test(arguments: [false, true])
    func aListThatHeldARemovedElementIsFetchedInFullAndHoldsItAgain(relaunched: Bool) async throws {
        var store = try launchStore()
        var lists = lists(over: store)
        try await lists.refresh("first")
        #expect(try await lists.refresh("first") == .notModified, "the list's validators are sent")
        try await store.remove(id: 2)
        #expect(try await lists.value(for: "first", policy: .returnCacheDontLoad)?.value.map(\.id) == [0, 1, 3, 4, 5])

        if relaunched {
            store = try launchStore()
            lists = self.lists(over: store)
        }
        let notModified = catalog.notModified
        #expect(try await lists.refresh("first") == .updated, "asked for in full: the server's list holds 2")
        #expect(catalog.notModified == notModified)
        #expect(try await lists.value(for: "first", policy: .returnCacheDontLoad)?.value.map(\.id) == Array(0..<6))
        #expect(try await store.element(id: 2) == Contact(id: 2, phone: "2"))
        #expect(try await lists.refresh("first") == .notModified, "the full answer's validators are kept")
    }

    @Test(arguments: [false, true])
    func aListFetchedAcrossARemovalIsStoredWithoutItsValidators(relaunched: Bool) async throws {
        let store = try launchStore()
        let (catalog, held) = (catalog, Locked<PagedCatalog.Gate?>(nil))
        let lists = KeyedRepository<String, [Contact]>(elements: store) { _, validators in
            if let gate = held.withLock({ gate in
                defer { gate = nil }; return gate
            }) {
                gate.arrived.resolve(())
                await gate.released.wait()
            }
            return catalog.first(6, validators: validators)
        }
        try await lists.refresh("first")
        let gate = PagedCatalog.Gate()
        held.withLock { $0 = gate }
        async let refreshed = lists.refresh("first")
        await gate.requested()
        // NB: the server's answer (2 among them) is stored without 2, removed since the request
        // went: a 304 to its validators would confirm the list without 2.
        try await store.remove(id: 2)
        gate.release()
        _ = try await refreshed
        #expect(try await lists.value(for: "first", policy: .returnCacheDontLoad)?.value.map(\.id) == [0, 1, 3, 4, 5])

        let reader: KeyedRepository<String, [Contact]> = relaunched ? self.lists(over: try launchStore()) : lists
        let notModified = catalog.notModified
        #expect(try await reader.refresh("first") == .updated, "asked for in full: the server's list holds 2")
        #expect(catalog.notModified == notModified)
        #expect(try await reader.value(for: "first", policy: .returnCacheDontLoad)?.value.map(\.id) == Array(0..<6))
    }

    @Test func aPageFetchedAcrossARemovalIsStoredWithoutItsValidators() async throws {
        let catalog = catalog
        let store = try launchStore()
        let model = PagingListViewModel<Void, Contact, String>(
            source: .persisted(in: store, key: "feed", revalidatingPagesOlderThan: .seconds(60)) {
                cursor, validators in try await catalog.page(cursor, validators: validators)
            })
        await model.refresh().completed()
        let gate = catalog.holdNextRequest()
        let next = model.loadNextPage()
        await gate.requested()
        try await store.remove(id: 4)
        gate.release()
        await next.settled()
        #expect(model.items.map(\.id) == [0, 1, 2, 3, 5])
        #expect(
            try sqlRows(
                "SELECT position || ' ' || coalesce(entity_tag, 'none') FROM content_loading_list_pages ORDER BY position",
                in: path
            ).last == "1 none")
        #expect(
            try sqlRows("SELECT count(*) FROM content_loading_list_pages WHERE entity_tag IS NOT NULL", in: path) == [
                "1"
            ])
    }

    @Test func aRemovalForgetsTheValidatorsOfThePagesThatHeldItOnly() async throws {
        // NB: opened in the middle, so the page loaded before the initial one is at position -1.
        let (catalog, store) = (catalog, try launchStore())
        let model = PagingListViewModel<Void, Contact, String>(
            source: .persisted(in: store, key: "feed") { cursor, validators in
                try await catalog.page(cursor, validators: validators, openingInTheMiddle: true)
            })
        await model.refresh().completed()
        await model.loadPreviousPage().settled()
        await model.loadNextPage().settled()
        let pages =
            "SELECT position || ' ' || coalesce(entity_tag, 'none') FROM content_loading_list_pages ORDER BY position"
        #expect(try sqlRows(pages, in: path).map { $0.hasSuffix(" none") } == [false, false, false])

        try await store.remove(id: 4)  // NB: on the page before the initial one (3, 4, 5)
        #expect(try sqlRows(pages, in: path).map { $0.hasSuffix(" none") } == [true, false, false])
        try await store.remove(id: 9)  // NB: on the page after it (9, 10, 11)
        #expect(try sqlRows(pages, in: path).map { $0.hasSuffix(" none") } == [true, false, true])
        #expect(try sqlRows(pages, in: path).first?.hasPrefix("-1 ") == true)
    }

    @Test func aStoredPageThatHeldARemovedElementIsFetchedInFullWhenItIsOld() async throws {
        let catalog = catalog
        func feed(over store: ElementStore<Contact>) -> PagingListViewModel<Void, Contact, String> {
            PagingListViewModel(
                source: .persisted(in: store, key: "feed", revalidatingPagesOlderThan: .seconds(60)) {
                    cursor, validators in try await catalog.page(cursor, validators: validators)
                })
        }
        func opened(over store: ElementStore<Contact>) async -> PagingListViewModel<Void, Contact, String> {
            let model = feed(over: store)
            await model.refresh().completed()
            for _ in 0..<2 { await model.loadNextPage().settled() }
            return model
        }
        _ = await opened(over: try launchStore())
        try await launchStore().remove(id: 4)
        clock.withLock { $0 += 61 }

        let (requests, notModified) = (catalog.requests, catalog.notModified)
        let model = await opened(over: try launchStore())
        #expect(catalog.requests == requests + ["-", "2", "5"])
        #expect(catalog.notModified == notModified + 2, "the page at 2 held 4: asked for in full")
        #expect(model.items.map(\.id) == Array(0..<9), "4 is back, as the server's page has it")
        #expect(model.state.error == nil)
    }
}
