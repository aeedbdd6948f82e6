import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// A persisted paging list made with `revalidatingPagesOlderThan:`: a stored page beyond the
/// initial one that is older than that is asked of the source again, with its validators,
/// when it joins the list. Unchanged, it is served as stored and nothing is written; changed,
/// the source's page is stored in its place; offline, the stored page joins with the error
/// beside it. Younger pages join without a request, as every stored page does without an age.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct PersistedPagingOldPagesTests {
    typealias Contact = ElementStoreTests.Contact
    typealias Feed = PagingListViewModel<Void, Contact, String>

    let path: String
    let catalog = PagedCatalog(count: 12, pageSize: 3)
    /// The store's clock, moved on by the tests.
    let clock = Locked(Date(timeIntervalSince1970: 1_800_000_000))
    init() throws { path = try temporaryCachePath() }

    /// A store over the file on the test's clock, and a paging model over its pages of "feed"
    /// that asks again for stored pages older than a minute: what an app makes at launch.
    func launch(maxAge: Duration? = .seconds(60), pageWindow: Int? = nil) throws -> Feed {
        try launchStore(maxAge: maxAge, pageWindow: pageWindow).feed
    }

    func launchStore(maxAge: Duration? = .seconds(60), pageWindow: Int? = nil) throws
        -> (store: ElementStore<Contact>, feed: Feed)
    {
        let clock = clock
        let store = ElementStore<Contact>(disk: try DiskCache(.file(path: path))) { clock.withLock { $0 } }
        return (store, feed(over: store, maxAge: maxAge, pageWindow: pageWindow))
    }

    /// A paging model over `store`'s pages of "feed" (another screen showing the list).
    func feed(over store: ElementStore<Contact>, maxAge: Duration? = .seconds(60), pageWindow: Int? = nil) -> Feed {
        let catalog = catalog
        return Feed(
            pageWindow: pageWindow,
            source: .persisted(in: store, key: "feed", revalidatingPagesOlderThan: maxAge) { cursor, validators in
                try await catalog.page(cursor, validators: validators)
            })
    }

    func advance(by seconds: TimeInterval) { clock.withLock { $0 += seconds } }

    func rows(_ sql: String) throws -> [String] { try sqlRows(sql, in: path) }

    /// Launches, refreshes and loads the next page `pages` times.
    func opened(pages: Int, maxAge: Duration? = .seconds(60)) async throws -> Feed {
        let feed = try launch(maxAge: maxAge)
        await feed.refresh().completed()
        for _ in 0..<pages { await feed.loadNextPage().settled() }
        return feed
    }

    @Test func aStoredPageOlderThanTheAgeIsAskedForAgainAndAYoungerOneIsNot() async throws {
        _ = try await opened(pages: 2)
        catalog.update(4, phone: "changed on the server")

        advance(by: 30)
        var requests = catalog.requests
        var feed = try await opened(pages: 2)
        #expect(catalog.requests == requests + ["-"], "pages half a minute old join as stored")
        #expect(feed.items.first { $0.id == 4 }?.phone == "4")

        advance(by: 31)
        requests = catalog.requests
        let notModified = catalog.notModified
        let stored = try rows("SELECT version || ' ' || fetched_at FROM content_loading_list_pages WHERE position = 2")
        feed = try await opened(pages: 2)
        #expect(catalog.requests == requests + ["-", "2", "5"], "both later pages are asked for again")
        #expect(catalog.notModified == notModified + 2, "the initial page and the page at 5, with their validators")
        #expect(feed.items.map(\.id) == Array(0..<9))
        #expect(feed.items.first { $0.id == 4 }?.phone == "changed on the server")
        #expect(feed.state.error == nil)
        #expect(
            try rows("SELECT version || ' ' || fetched_at FROM content_loading_list_pages WHERE position = 2")
                == stored, "the unchanged page: nothing written")
        #expect(try rows("SELECT count(*) FROM content_loading_list_pages") == ["3"])

        catalog.isOnline = false
        feed = try await opened(pages: 1)
        #expect(feed.items.first { $0.id == 4 }?.phone == "changed on the server", "the page fetched was stored")
    }

    /// "Not modified" writes nothing, so the store remembers in memory that the page was
    /// confirmed (a relaunch asks again): until it is older than the age again, counted from
    /// then, it joins without a request, in any model over the store.
    @Test func aPageConfirmedUnchangedIsNotAskedForAgainUntilItIsOldAgain() async throws {
        _ = try await opened(pages: 2)
        advance(by: 61)
        let (store, feed) = try launchStore()
        var requests = catalog.requests
        await feed.refresh().completed()
        for _ in 0..<2 { await feed.loadNextPage().settled() }
        #expect(catalog.requests == requests + ["-", "2", "5"])

        advance(by: 30)
        requests = catalog.requests
        let another = self.feed(over: store)
        await another.refresh().completed()
        for _ in 0..<2 { await another.loadNextPage().settled() }
        #expect(catalog.requests == requests + ["-"], "confirmed half a minute ago: joined as stored")
        #expect(another.items.map(\.id) == Array(0..<9))

        advance(by: 31)
        requests = catalog.requests
        let third = self.feed(over: store)
        await third.refresh().completed()
        for _ in 0..<2 { await third.loadNextPage().settled() }
        #expect(catalog.requests == requests + ["-", "2", "5"], "confirmed over a minute ago: asked again")
    }

    @Test func withoutAnAgeAStoredPageJoinsAsStoredHoweverOld() async throws {
        _ = try await opened(pages: 2, maxAge: nil)
        catalog.update(4, phone: "changed on the server")
        advance(by: 365 * 24 * 3_600)
        let requests = catalog.requests
        let feed = try await opened(pages: 2, maxAge: nil)
        #expect(catalog.requests == requests + ["-"])
        #expect(feed.items.first { $0.id == 4 }?.phone == "4")
    }

    @Test func offlineAnOldStoredPageJoinsWithTheErrorBesideIt() async throws {
        _ = try await opened(pages: 2)
        advance(by: 61)
        let feed = try launch()
        await feed.refresh().completed()
        #expect(feed.state.error == nil)
        catalog.isOnline = false
        await feed.loadNextPage().settled()
        #expect(feed.items.map(\.id) == Array(0..<6), "the stored page joins")
        #expect(feed.state.error is PagedCatalog.Offline, "with the error beside the list")
        #expect(feed.nextPageState == .idle)
        await feed.loadNextPage().settled()
        #expect(feed.items.map(\.id) == Array(0..<9))
        catalog.isOnline = true
        await feed.refresh().completed()
        #expect(feed.state.error == nil, "the next refresh that settles clears it")
        #expect(try rows("SELECT count(*) FROM content_loading_list_pages") == ["3"], "nothing stored went")
    }

    @Test func anOldPageWhoseIdsChangedTakesTheStoredPagesBeyondItWithIt() async throws {
        _ = try await opened(pages: 2)
        // NB: a contact inserted into the page at "2": its ids and next cursor change.
        catalog.insert(Contact(id: 100, phone: "new"), at: 4)
        advance(by: 61)
        let requests = catalog.requests
        let feed = try await opened(pages: 2)
        #expect(feed.items.map(\.id) == [0, 1, 2, 3, 100, 4, 5, 6, 7])
        #expect(catalog.requests == requests + ["-", "2", "4"], "the page beyond is fetched, not served as stored")
        #expect(feed.state.error == nil)
    }

    @Test func aPageWhosePreviousCursorChangedKeepsThePagesBeforeIt() async throws {
        _ = try await opened(pages: 2)
        // NB: added right after contact 2: the page at "2" begins with it (another previous cursor).
        catalog.insertNew(at: 3, phone: "new")
        advance(by: 61)
        let feed = try await opened(pages: 2)
        #expect(feed.items.map(\.id) == [0, 1, 2, 12, 3, 4, 5, 6, 7])
        #expect(
            try rows("SELECT position || ' ' || ifnull(request, '-') FROM content_loading_list_pages ORDER BY position")
                == [#"0 -"#, #"1 "2""#, #"2 "4""#], "the initial page stays; the page beyond went, and came again")
    }

    @Test func aStoredPageFetchedAfterNowIsAskedForAgain() async throws {
        _ = try await opened(pages: 1)
        catalog.update(4, phone: "changed on the server")
        // NB: the clock went back: the page's age is unknown.
        advance(by: -3_600)
        let feed = try await opened(pages: 1)
        #expect(feed.items.first { $0.id == 4 }?.phone == "changed on the server")
    }

    @Test func anOldPageTheWindowDroppedIsStoredInItsPlaceWhenItComesBackChanged() async throws {
        let (store, feed) = try launchStore(pageWindow: 2)
        await feed.refresh().completed()
        for _ in 0..<3 { await feed.loadNextPage().settled() }
        #expect(feed.items.map(\.id) == Array(6..<12), "the first two pages dropped")
        catalog.update(4, phone: "changed on the server")
        advance(by: 61)

        // NB: the page at "2" was asked for going forward; it comes back going back.
        await feed.loadPreviousPage().settled()
        #expect(feed.items.map(\.id) == Array(3..<9))
        #expect(feed.items.first { $0.id == 4 }?.phone == "changed on the server")
        #expect(try await store.element(id: 4)?.phone == "changed on the server", "stored in its place")
        #expect(try rows("SELECT count(*) FROM content_loading_list_pages") == ["4"])

        catalog.isOnline = false
        let offline = try await opened(pages: 1)
        #expect(offline.items.first { $0.id == 4 }?.phone == "changed on the server")
    }
}
