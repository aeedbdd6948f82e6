import ContentLoading
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import Testing

@testable import ContentLoadingRepository

/// Refreshes of a persisted paging list that overlap: the one that delivers last is not always
/// the one that wrote last. Whatever order they end in, the model shows what its stored pages
/// hold.
extension PagingRemovalOrderTests {
    /// The server adds an item at 1, then `feed` refreshes twice: the first stores the changed
    /// initial page (the pages after it go: its next cursor changed), then is replaced before
    /// it delivers it; the second finds it current. Returns the new item's id and the second
    /// refresh's state.
    func refreshTwiceAsTheServerAddsAnItem(
        _ feed: Feed
    ) async -> (new: Int, second: ContentLoadingState<PagedList<Contact, String>>) {
        let new = catalog.insertNew(at: 1, phone: "new on the server")
        let (reached, release) = hold { change in change.saved.contains { $0.id == new } }
        let replaced = feed.refresh()
        await reached()
        let second = await feed.refresh().completed()
        release()
        await replaced.completed()
        return (new, second)
    }

    @Test func aRefreshAnsweredNotModifiedShowsTheInitialPageAReplacedRefreshStored() async throws {
        await feed.refresh().completed()
        await feed.loadNextPage().settled()
        #expect(feed.items.map(\.id) == Array(0..<6))
        let (new, second) = await refreshTwiceAsTheServerAddsAnItem(feed)
        #expect(catalog.notModified == 1, "the second refresh was answered \"not modified\"")
        #expect(second.content?.map(\.id) == [0, new, 1])
        #expect(feed.items.map(\.id) == (try await storedIDs(of: "feed", pages: 2)))

        await feed.refresh().completed()
        #expect(feed.items.map(\.id) == [0, new, 1], "a refresh after it finds the page current too")
        await feed.loadNextPage().settled()
        #expect(feed.items.map(\.id) == [0, new, 1, 2, 3, 4], "paging on from the stored page's cursor")
    }

    /// The same with a page window that dropped the initial page: it is compared as it was
    /// when the window dropped it.
    @Test func aRefreshAnsweredNotModifiedShowsTheInitialPageAReplacedRefreshStoredPastAWindow() async throws {
        let feed = PersistedPagingTests.feed(over: store, key: "windowed", catalog: catalog, pageWindow: 1)
        await feed.refresh().completed()
        await feed.loadNextPage().settled()
        #expect(feed.items.map(\.id) == [3, 4, 5], "the window dropped the initial page")
        let (new, second) = await refreshTwiceAsTheServerAddsAnItem(feed)
        #expect(catalog.notModified == 1, "the second refresh was answered \"not modified\"")
        #expect(second.content?.map(\.id) == [0, new, 1])
        #expect(try await storedIDs(of: "windowed", pages: 2) == [0, new, 1], "the pages after it went")
    }

    /// A refresh replaced by another (cancelled) whose request the server answers all the same
    /// stores nothing: stored after the other's page, its page would be in the file and not on
    /// screen. (The check is made in the write's turn on the file, so a refresh that replaced
    /// it reads the file with that page or without it.)
    @Test func aCancelledRefreshDoesNotStoreTheInitialPageItFetched() async throws {
        await feed.refresh().completed()
        let new = catalog.insertNew(at: 1, phone: "new")
        let catalog = catalog
        let pages = PersistedPages<Contact, String>(store: store, key: "feed") { cursor, validators in
            cancelCurrentTask()  // NB: cancelled while the request is out
            return try await catalog.page(cursor, validators: validators)
        }
        let refresh = Task { try await pages.refreshedInitialPage() }
        await #expect(throws: CancellationError.self) { try await refresh.value }
        #expect(catalog.requests == ["-", "-"], "the server answered")
        #expect(try await storedIDs(of: "feed") == [0, 1, 2], "the page with \(new) was not stored")

        let current = PersistedPages<Contact, String>(store: store, key: "feed") { cursor, validators in
            try await catalog.page(cursor, validators: validators)
        }
        _ = try await current.refreshedInitialPage()
        #expect(try await storedIDs(of: "feed") == [0, new, 1], "one not cancelled stores it")
    }

    @Test func aRefreshAnsweredNotModifiedKeepsTheListShownWhenItHoldsTheStoredInitialPage() async throws {
        await feed.refresh().completed()
        await feed.loadNextPage().settled()
        let requests = catalog.requests.count
        await feed.refresh().completed()
        #expect(catalog.notModified == 1)
        #expect(feed.items.map(\.id) == Array(0..<6), "the pages after the initial one stay")
        #expect(catalog.requests.count == requests + 1, "one request: the initial page's")
    }
}

/// Cancels the task it runs in. A synchronous function, so that the synchronous
/// `withUnsafeCurrentTask` is the one called (its `async` overload needs macOS 15).
private func cancelCurrentTask() {
    withUnsafeCurrentTask { $0?.cancel() }
}
