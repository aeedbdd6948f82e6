import ContentLoading
import ContentLoadingRepository
import ContentLoadingTesting
import Foundation
import Testing

/// A persisted list whose pages shown lose every item (each removed through the store) is not
/// at its end: the model pages on when asked (not by itself: a sign-out removes every element
/// under a model on screen), and a relaunch, offline too, opens on the stored pages after the
/// emptied ones. (It used to settle in `empty` at the end, and a relaunch offline showed
/// nothing though pages after the first were stored.)
extension PersistedPagingTests {
    @Test func aModelWhosePagesLoseEveryItemIsNotAtItsEnd() async throws {
        let (store, feed) = try launch()
        await feed.refresh().completed()
        for id in 0..<3 { try await store.remove(id: id) }
        #expect(feed.items.isEmpty)
        #expect(feed.state.phase == .success, "not empty: there is more")
        #expect(feed.nextPageState == .idle, "not loading by itself")
        #expect(catalog.requests == ["-"])
        await feed.loadNextPage().settled()
        #expect(feed.items.map(\.id) == [3, 4, 5])
    }

    @Test func aRelaunchOfflineOpensOnTheStoredPagesAfterAnEmptiedFirstOne() async throws {
        var (store, feed) = try launch()
        await feed.refresh().completed()
        await feed.loadNextPage().settled()
        for id in 0..<3 { try await store.remove(id: id) }

        catalog.isOnline = false
        (store, feed) = try launch()
        let pageStates = StreamRecorder(feed.nextPageStateUpdates)
        let opened = await feed.refresh().completed()
        #expect(opened.error != nil, "the request failed, offline")
        while try await pageStates.next() != .idle || feed.items.isEmpty {}
        #expect(feed.items.map(\.id) == [3, 4, 5], "the stored page after the emptied one")
    }
}
