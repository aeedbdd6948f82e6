import ContentLoading
import ContentLoadingRepository
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// Records that hold an id twice: a fetched page with an id another stored page of its list
/// holds (the item moved between two requests), and stored ids that repeat one (a file
/// changed behind the kit's back). Each is an error naming the list and the id, beside the
/// rest, which is served with the id once; nothing stored is deleted. (A fetched page that
/// repeats an id within itself is rejected whole by the kit's rule for duplicate ids:
/// `PersistedPagingTests.aFetchedPageWithADuplicateIdIsRejectedBeforeItIsStored`.)
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct RepeatedIDRecordTests {
    typealias Contact = ElementStoreTests.Contact

    /// The paging suite's file, catalog and launch, for the paged lists here.
    let paging: PersistedPagingTests
    init() throws { paging = try PersistedPagingTests() }
    var path: String { paging.path }
    var catalog: PagedCatalog { paging.catalog }

    @Test func aFetchedPageWithAnIdAnotherStoredPageHoldsIsStoredAndNamedInAnError() async throws {
        var (_, feed) = try paging.launch()
        await feed.refresh().completed()
        catalog.insert(Contact(id: 1, phone: "moved"), at: 3)

        #expect(await feed.loadNextPage().settled() == .idle)
        #expect(feed.items.map(\.id) == [0, 1, 2, 3, 4], "the item once, where it was first")
        #expect(feed.items[1].phone == "moved", "with the newest data")
        let error = try #require(feed.state.error as? CacheError, "the error beside the list")
        #expect(error.description.contains("cannot store cache entry pages feed in \(path)"))
        #expect(error.description.contains("its element 1 is on another page of the list too"))
        #expect(
            try paging.rows("SELECT position || ' ' || CAST(ids AS TEXT) FROM content_loading_list_pages") == [
                #"0 ["0","1","2"]"#, #"1 ["1","3","4"]"#,
            ], "both pages stored as fetched")

        catalog.isOnline = false
        (_, feed) = try paging.launch()
        await feed.refresh().completed()
        #expect(await feed.loadNextPage().settled() == .idle)
        #expect(feed.items.map(\.id) == [0, 1, 2, 3, 4], "offline after a relaunch, the item once")
        #expect(feed.items[1].phone == "moved")
    }

    /// The membership keys of a list's pages are its key, U+001F and the position, so the pages
    /// of a list whose key is another's followed by U+001F sort among the other's. A key holding
    /// a NUL too: the length of a text stops at a NUL in SQL, and the nested list's pages were
    /// taken for this one's.
    @Test(arguments: ["feed", "fe\u{0}ed"])
    func aListWhoseKeyExtendsAnothersWithTheSeparatorHoldsItsOwnIds(key: String) async throws {
        let store = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        let feed = paging.feed(over: store, key: key)
        let nested = paging.feed(over: store, key: "\(key)\u{1F}1")
        await nested.refresh().completed()
        #expect(await nested.loadNextPage().settled() == .idle)
        await feed.refresh().completed()
        #expect(await feed.loadNextPage().settled() == .idle)
        #expect(feed.items.map(\.id) == [0, 1, 2, 3, 4, 5])
        #expect(feed.state.error == nil, "the other list's pages are not this list's")
    }

    @Test func storedPagesThatRepeatAnIdServeItOnceWithAnErrorNamingIt() async throws {
        var (_, feed) = try paging.launch()
        await feed.refresh().completed()
        await feed.loadNextPage().settled()
        let database = try SQLiteDatabase(.file(path: path))
        try database.execute(
            #"UPDATE content_loading_list_pages SET ids = CAST('["0","1","0","2"]' AS BLOB) WHERE position = 0"#)
        try database.execute(
            #"UPDATE content_loading_list_pages SET ids = CAST('["3","4","3","5"]' AS BLOB) WHERE position = 1"#)

        catalog.isOnline = false
        (_, feed) = try paging.launch()
        let recorder = StateRecorder(feed)
        await feed.refresh().completed()
        let errors = recorder.states.compactMap { $0.error as? CacheError }.map(\.description)
        #expect(errors.count == 1)
        #expect(errors.first?.contains("cannot read cache entry pages feed in \(path)") == true)
        #expect(errors.first?.contains("its element 0 is held twice (the first is served); the rest is served") == true)
        #expect(feed.items.map(\.id) == [0, 1, 2])

        #expect(await feed.loadNextPage().settled() == .idle, "a later page is served, not failed")
        #expect(feed.items.map(\.id) == [0, 1, 2, 3, 4, 5])
        #expect((feed.state.error as? CacheError)?.description.contains("its element 3 is held twice") == true)
        #expect(try paging.rows("SELECT count(*) FROM content_loading_elements") == ["6"], "nothing deleted")
    }

    @Test func aStoredListThatRepeatsAnIdServesItOnceWithAnErrorNamingIt() async throws {
        let lists = KeyedRepository<String, [Contact]>(elements: ElementStore(disk: try DiskCache(.file(path: path)))) {
            _ in []
        }
        try await lists.save([Contact(id: 1, phone: "one"), Contact(id: 2, phone: "two")], for: "a")
        try SQLiteDatabase(.file(path: path)).execute(
            #"UPDATE content_loading_cache_values SET value = CAST('["1","2","1"]' AS BLOB) WHERE key LIKE '%|a'"#)

        let restarted = KeyedRepository<String, [Contact]>(
            elements: ElementStore(disk: try DiskCache(.file(path: path)))
        ) { _ in [] }
        var events = restarted.events(for: "a", policy: .returnCacheDontLoad).makeAsyncIterator()
        let first = await events.next()
        guard case .error(let failure) = first else {
            Issue.record("the first event is the error, not \(String(describing: first))")
            return
        }
        #expect("\(failure)".contains("cannot read cache entry a in \(path)"))
        #expect("\(failure)".contains("its element 1 is held twice (the first is served); the rest is served"))
        #expect(await events.next()?.cachedValue?.value.map(\.id) == [1, 2], "the rest served, order kept")
        #expect(try paging.rows("SELECT id FROM content_loading_elements ORDER BY id") == ["1", "2"])
    }
}
