import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// Paged lists kept in an element store: opened from the stored pages (offline too), paged on
/// through them without a request, each fetched page stored with its elements and cursors.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct PersistedPagingTests {
    typealias Contact = ElementStoreTests.Contact
    typealias Feed = PagingListViewModel<Void, Contact, String>

    let path: String
    let catalog = PagedCatalog(count: 12, pageSize: 3)
    init() throws { path = try temporaryCachePath() }

    /// A store over the file and a paging model over its pages of "feed", as an app makes them
    /// at launch.
    func launch(pageWindow: Int? = nil) throws -> (ElementStore<Contact>, Feed) {
        let store = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        return (store, feed(over: store, pageWindow: pageWindow))
    }

    func feed(over store: ElementStore<Contact>, key: String = "feed", pageWindow: Int? = nil) -> Feed {
        Self.feed(over: store, key: key, catalog: catalog, pageWindow: pageWindow)
    }

    /// A paging model over `store`'s pages of `key`, fetched from `catalog`.
    static func feed(
        over store: ElementStore<Contact>, key: String, catalog: PagedCatalog, pageWindow: Int? = nil
    ) -> Feed {
        Feed(
            pageWindow: pageWindow,
            source: .persisted(in: store, key: key) { cursor, validators in
                try await catalog.page(cursor, validators: validators)
            })
    }

    func rows(_ sql: String) throws -> [String] { try sqlRows(sql, in: path) }

    @Test func aPagedListOpensFromItsStoredPagesOfflineAndPagesOnFromTheStoredCursor() async throws {
        var (_, feed) = try launch()
        await feed.refresh().completed()
        await feed.loadNextPage().settled()
        await feed.loadNextPage().settled()
        #expect(feed.items.map(\.id) == Array(0..<9))
        #expect(
            try rows("SELECT position || ' ' || ifnull(request, '-') FROM content_loading_list_pages") == [
                #"0 -"#, #"1 "2""#, #"2 "5""#,
            ])
        #expect(try rows("SELECT count(*) FROM content_loading_elements") == ["9"])

        catalog.isOnline = false
        (_, feed) = try launch()
        let opened = await feed.refresh().completed()
        #expect(opened.content?.map(\.id) == [0, 1, 2], "the stored initial page, offline")
        #expect(opened.error != nil, "the failed request is an error beside the stored pages")
        await feed.loadNextPage().settled()
        await feed.loadNextPage().settled()
        #expect(feed.items.map(\.id) == Array(0..<9), "the stored pages, in order, with no request")
        #expect(feed.nextPageState == .idle)

        catalog.isOnline = true
        let requests = catalog.requests
        await feed.loadNextPage().settled()
        #expect(feed.items.map(\.id) == Array(0..<12))
        #expect(catalog.requests == requests + ["8"], "paging on asks for the stored next cursor only")
        #expect(feed.nextPageState == .endReached)
    }

    @Test func revalidatingAnUnchangedInitialPageIsANotModifiedThatWritesNothing() async throws {
        let (_, feed) = try launch()
        await feed.refresh().completed()
        await feed.loadNextPage().settled()
        let stored = try rows("SELECT version || ' ' || fetched_at FROM content_loading_list_pages ORDER BY position")

        let refreshed = await feed.refresh().completed()
        #expect(catalog.notModified == 1)
        #expect(refreshed.content?.map(\.id) == Array(0..<6), "the list shown stays, both pages")
        #expect(
            try rows("SELECT version || ' ' || fetched_at FROM content_loading_list_pages ORDER BY position")
                == stored, "nothing written")
    }

    @Test func aChangedInitialPageWithAnotherNextCursorTakesTheStoredPagesAfterItWithIt() async throws {
        var (_, feed) = try launch()
        await feed.refresh().completed()
        await feed.loadNextPage().settled()
        await feed.loadNextPage().settled()

        catalog.insert(Contact(id: 100, phone: "new"), at: 0)
        let refreshed = await feed.refresh().completed()
        #expect(refreshed.content?.map(\.id) == [100, 0, 1])
        #expect(try rows("SELECT position FROM content_loading_list_pages") == ["0"], "the old pages no longer follow")
        #expect(try rows("SELECT count(*) FROM content_loading_elements") == ["3"], "their elements went with them")

        (_, feed) = try launch()
        await feed.refresh().completed()
        await feed.loadNextPage().settled()
        #expect(feed.items.map(\.id) == [100, 0, 1, 2, 3, 4], "contiguous after a relaunch")
    }

    /// With an anchor, a refresh that brings new contacts at the top pages through the source
    /// to the anchor's page, storing each page after the one before it, and keeps the anchor's
    /// index; the held contacts come back from the file.
    @Test func aRefreshKeepsTheAnchorsPlaceAndStoresThePagesOnTheWayContiguously() async throws {
        var (_, feed) = try launch()
        await feed.refresh().completed()
        for _ in 0..<2 { await feed.loadNextPage().settled() }
        feed.anchor = 7
        #expect(feed.items.firstIndex { $0.id == 7 } == 7)

        catalog.insert(Contact(id: 100, phone: "new"), at: 0)
        catalog.insert(Contact(id: 101, phone: "new"), at: 3)
        await feed.refresh().completed()
        #expect(feed.items.firstIndex { $0.id == 7 } == 7, "the anchor stays where the reader left it")
        #expect(feed.items.itemsBefore == 0)
        #expect(feed.items.map(\.id) == [1, 101, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], "two contacts held before the list")
        #expect(
            try rows("SELECT position || ' ' || ifnull(request, '-') FROM content_loading_list_pages") == [
                #"0 -"#, #"1 "1""#, #"2 "3""#, #"3 "6""#, #"4 "9""#,
            ], "the pages on the way to the anchor and one past it, after each other")

        let requests = catalog.requests
        await feed.loadPreviousPage().settled()
        #expect(feed.items.map(\.id) == [100, 0, 1, 101, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
        #expect(catalog.requests == requests, "the held contacts came from the file")

        catalog.isOnline = false
        (_, feed) = try launch()
        await feed.refresh().completed()
        for _ in 0..<4 { await feed.loadNextPage().settled() }
        #expect(
            feed.items.map(\.id) == [100, 0, 1, 101, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], "contiguous after a relaunch")
    }

    /// Bad rows in stored pages: an element whose row does not decode, or whose row the file
    /// lost, is an error naming the list and the element beside the rest of the page, which is
    /// served (the initial page and a later one alike), and only the bad rows go.
    @Test(arguments: [
        ("UPDATE content_loading_elements SET value = X'7B7D' WHERE id IN ('1', '4')", "does not decode"),
        ("DELETE FROM content_loading_elements WHERE id IN ('1', '4')", "is missing from the file"),
    ])
    func aBadElementRowIsAnErrorNamingItAndTheRestOfThePageIsServed(corruption: String, problem: String)
        async throws
    {
        var (_, feed) = try launch()
        await feed.refresh().completed()
        await feed.loadNextPage().settled()
        try SQLiteDatabase(.file(path: path)).execute(corruption)

        catalog.isOnline = false
        (_, feed) = try launch()
        let recorder = StateRecorder(feed)
        await feed.refresh().completed()
        let errors = recorder.states.compactMap { $0.error as? CacheError }
        #expect(errors.count == 1)
        #expect(errors.first?.description.contains("entry pages feed in \(path)") == true)
        #expect(errors.first?.description.contains("its element 1 \(problem)") == true)
        #expect(feed.items.map(\.id) == [0, 2], "the rest of the initial page, offline")

        #expect(await feed.loadNextPage().settled() == .idle, "a later page is served too")
        #expect(feed.items.map(\.id) == [0, 2, 3, 5], "the rest of the second page, from the file")
        let pageError = try #require(feed.state.error as? CacheError, "the error beside the list")
        #expect(pageError.description.contains("entry pages feed in \(path)"))
        #expect(pageError.description.contains("its element 4 \(problem)"))
        #expect(
            try rows("SELECT id FROM content_loading_elements ORDER BY CAST(id AS INTEGER)") == ["0", "2", "3", "5"])
    }

    /// A fetched page that holds an id twice is rejected by the kit's rule for duplicate ids
    /// before anything is written: the error names the list and the id, the stored pages stay.
    @Test func aFetchedPageWithADuplicateIdIsRejectedBeforeItIsStored() async throws {
        let (_, feed) = try launch()
        await feed.refresh().completed()
        let stored = try rows("SELECT position || ' ' || ids FROM content_loading_list_pages")
        catalog.insert(Contact(id: 4, phone: "again"), at: 4)

        guard case .failed(let failure) = await feed.loadNextPage().settled() else {
            Issue.record("the page with a duplicate id fails")
            return
        }
        #expect("\(failure)".contains("entry pages feed in"))
        #expect("\(failure)".contains("duplicate id 4 at positions 1 and 2"))
        #expect(try rows("SELECT position || ' ' || ids FROM content_loading_list_pages") == stored, "nothing written")
        #expect(feed.items.map(\.id) == [0, 1, 2])
    }

    @Test func aWindowThatDroppedPagesReloadsThemFromTheStore() async throws {
        let (_, feed) = try launch(pageWindow: 2)
        await feed.refresh().completed()
        for _ in 0..<3 { await feed.loadNextPage().settled() }
        #expect(feed.items.map(\.id) == Array(6..<12))
        let requests = catalog.requests

        await feed.loadPreviousPage().settled()
        await feed.loadPreviousPage().settled()
        #expect(feed.items.map(\.id) == Array(0..<6))
        #expect(catalog.requests == requests, "no request: both pages were stored")
    }

    @Test func aSaveOrRemovalCalledOffTheMainActorReachesThePagingModelBeforeItReturns() async throws {
        let (store, feed) = try launch()
        await feed.refresh().completed()

        try await Task.detached { try await store.save(Contact(id: 1, phone: "saved elsewhere")) }.value
        #expect(feed.items[1].phone == "saved elsewhere")
        try await Task.detached { try await store.remove(id: 2) }.value
        #expect(feed.items.map(\.id) == [0, 1])
    }

    @Test func aSaveThroughTheStoreReachesThePagingModelTheStoredPagesAndOtherLists() async throws {
        var (store, feed) = try launch()
        let lists = KeyedRepository<String, [Contact]>(elements: store) { _ in [Contact(id: 4, phone: "listed")] }
        await feed.refresh().completed()
        await feed.loadNextPage().settled()

        try await store.save(Contact(id: 1, phone: "edited"))
        #expect(feed.items.map(\.phone) == ["0", "edited", "2", "3", "4", "5"], "in place, order kept")
        try await lists.refresh("other")
        #expect(feed.items[4].phone == "listed", "a list fetched elsewhere brings its elements")
        try await store.remove(id: 2)
        #expect(feed.items.map(\.id) == [0, 1, 3, 4, 5])

        catalog.isOnline = false
        (store, feed) = try launch()
        await feed.refresh().completed()
        await feed.loadNextPage().settled()
        #expect(feed.items.map(\.phone) == ["0", "edited", "3", "listed", "5"], "on disk too")
    }

    @Test func aFetchedPageKeepsAnElementSavedAfterItsRequestStarted() async throws {
        let (store, feed) = try launch()
        await feed.refresh().completed()
        let gate = catalog.holdNextRequest()
        let next = feed.loadNextPage()
        await gate.requested()
        try await store.save(Contact(id: 4, phone: "saved meanwhile"))
        gate.release()
        await next.settled()
        #expect(feed.items[4].phone == "saved meanwhile")
        #expect(try await store.element(id: 4)?.phone == "saved meanwhile")
    }

    @Test func aModelOverStoredPagesIsFreedWhenTheAppDropsIt() async throws {
        let store = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        var feed: Feed? = feed(over: store)
        await feed!.refresh().completed()
        try await expectRelease(of: &feed)
        try await store.save(Contact(id: 1, phone: "after"))
    }
}
