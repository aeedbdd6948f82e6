import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import Foundation
import Testing

/// The stored pages of a paged list, removed by the app (a sign-out, a change the first page
/// does not show): gone from the file, not stored again by a refresh that was on its way.
extension PersistedPagingTests {
    func storedPageCount() throws -> [String] {
        try rows("SELECT list_key || ' ' || count(*) FROM content_loading_list_pages GROUP BY list_key")
    }

    @Test func removedPagesLeaveTheFileAndTheNextModelFetchesThem() async throws {
        var (store, feed) = try launch()
        await feed.refresh().completed()
        await feed.loadNextPage().settled()

        try await store.removePages(of: "feed")
        #expect(try storedPageCount().isEmpty)
        #expect(try rows("SELECT count(*) FROM content_loading_elements") == ["0"], "no other list held them")
        #expect(feed.items.map(\.id) == Array(0..<6), "a model showing the list keeps what it shows")

        catalog.isOnline = false
        (store, feed) = try launch()
        let opened = await feed.refresh().completed()
        #expect(opened.content == nil && opened.error != nil, "nothing stored to open with, offline")
        catalog.isOnline = true
        await feed.refresh().completed()
        #expect(feed.items.map(\.id) == [0, 1, 2])
        #expect(try storedPageCount().count == 1, "stored again")
    }

    /// A repository of lists over `store` whose list "all" holds every contact, fetched.
    func listOfAll(over store: ElementStore<Contact>) async throws -> KeyedRepository<String, [Contact]> {
        let catalog = catalog
        let lists = KeyedRepository<String, [Contact]>(elements: store) { _, validators in
            catalog.first(12, validators: validators)
        }
        #expect(try await lists.refresh("all") == .updated)
        return lists
    }

    /// A model paging on after its list's stored pages went fetches pages that have no place
    /// to be stored; their elements that another list holds are written all the same, so that
    /// list does not show an older copy than the model.
    @Test func aPageWithNoPlaceIsNotStoredButUpdatesTheElementsAnotherListHolds() async throws {
        let (store, feed) = try launch()
        let lists = try await listOfAll(over: store)
        await feed.refresh().completed()
        try await store.removePages(of: "feed")
        catalog.update(4, phone: "changed on the server")

        await feed.loadNextPage().settled()
        #expect(feed.items.map(\.id) == Array(0..<6))
        #expect(feed.items.first { $0.id == 4 }?.phone == "changed on the server")
        #expect(try storedPageCount().isEmpty, "no stored page asks for it: not stored")
        #expect(try await store.element(id: 4)?.phone == "changed on the server", "the element another list holds")
        let list = try await lists.value(for: "all", policy: .returnCacheDontLoad)?.value
        #expect(list?.first { $0.id == 4 }?.phone == "changed on the server")
        #expect(try rows("SELECT count(*) FROM content_loading_elements") == ["12"], "no element added")
    }

    @Test func aRefreshOnItsWayWhenThePagesAreRemovedUpdatesTheElementsAnotherListHolds() async throws {
        let (store, feed) = try launch()
        let lists = try await listOfAll(over: store)
        await feed.refresh().completed()
        catalog.update(0, phone: "zero")
        let gate = catalog.holdNextRequest()
        let refresh = feed.refresh()
        await gate.requested()
        try await store.removePages(of: "feed")
        gate.release()
        await refresh.completed()

        #expect(try storedPageCount().isEmpty, "the page is not stored")
        #expect(try await store.element(id: 0)?.phone == "zero", "its element another list holds is")
        let list = try await lists.value(for: "all", policy: .returnCacheDontLoad)?.value
        #expect(list?.first?.phone == "zero")
    }

    @Test(arguments: [false, true])
    func aRefreshOnItsWayWhenThePagesAreRemovedDoesNotStoreItsPage(byPrefix: Bool) async throws {
        let (store, feed) = try launch()
        await feed.refresh().completed()
        catalog.update(0, phone: "zero")
        let gate = catalog.holdNextRequest()
        let refresh = feed.refresh()
        await gate.requested()

        if byPrefix {
            try await store.removePages(ofKeysWithPrefix: "fe")
        } else {
            try await store.removePages(of: "feed")
        }
        gate.release()
        await refresh.completed()
        #expect(feed.items.map(\.phone) == ["zero", "1", "2"], "shown")
        #expect(try storedPageCount().isEmpty, "not stored: the pages were removed after its request started")

        await feed.refresh().completed()
        #expect(try storedPageCount().count == 1, "a refresh that starts after the removal stores its page")
    }

    /// A prefix is remembered followed by U+001F, and every list by U+001F alone: the key of one
    /// list that ends with U+001F (or is it) is still that list's only.
    @Test(arguments: ["fe\u{1F}", "\u{1F}"])
    func removingTheListWhoseKeyEndsWithTheSeparatorKeepsARefreshOfAnother(key: String) async throws {
        let (store, feed) = try launch()
        let gate = catalog.holdNextRequest()
        let refresh = feed.refresh()
        await gate.requested()
        try await store.removePages(of: key)
        gate.release()
        await refresh.completed()
        #expect(try storedPageCount().count == 1, "the feed's page is stored: its pages were not removed")
    }

    @Test func removingByPrefixRemovesTheMatchingListsOnly() async throws {
        let store = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        for key in ["search/a", "search/b", "feed"] { await feed(over: store, key: key).refresh().completed() }
        #expect(try storedPageCount().count == 3)

        try await store.removePages(ofKeysWithPrefix: "search/")
        let left = try storedPageCount()
        #expect(left.map { $0.hasSuffix("|feed 1") } == [true], "\(left)")
        #expect(try rows("SELECT count(*) FROM content_loading_elements") == ["3"], "the feed still holds them")

        try await store.removePages(ofKeysWithPrefix: "")
        #expect(try storedPageCount().isEmpty)
    }

    /// Compared as bytes: the length of a text stops at a NUL in SQL, so a prefix holding one
    /// removed no list.
    @Test func removingByAPrefixHoldingANULRemovesTheListsItStarts() async throws {
        let store = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        for key in ["se\u{0}arch/a", "se\u{0}arch/b", "se", "feed"] {
            await feed(over: store, key: key).refresh().completed()
        }
        try await store.removePages(ofKeysWithPrefix: "se\u{0}arch/")
        let left = try storedPageCount()
        #expect(left.map { $0.hasSuffix("|se 1") || $0.hasSuffix("|feed 1") } == [true, true], "\(left)")
    }

    @Test func aRemovalThatFailsThrowsNamingTheFileAndTheListAndChangesNothing() async throws {
        let (store, feed) = try launch()
        await feed.refresh().completed()
        _ = try rows(
            """
            CREATE TRIGGER refuse_removals BEFORE DELETE ON content_loading_list_pages
                BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
            """)
        do {
            try await store.removePages(of: "feed")
            Issue.record("the removal failed: it throws")
        } catch let error as CacheError {
            #expect(error.path == path)
            #expect(error.key == "pages feed")
            #expect(error.reason.contains("refused by the test"), "\(error)")
        }
        #expect(try storedPageCount().count == 1, "nothing changed")
        #expect(try rows("SELECT count(*) FROM content_loading_element_removals WHERE type LIKE 'pages:%'") == ["0"])
    }
}
