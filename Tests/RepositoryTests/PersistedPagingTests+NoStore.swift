import ContentLoading
import ContentLoadingRepository
import Foundation
import Testing

/// Pages the server answers with `Cache-Control: no-store`: shown, never written to the file,
/// and the list's older stored pages removed, as a repository's `no-store` value is.
extension PersistedPagingTests {
    @Test func aPageTheServerSaysNotToStoreIsShownAndNotStoredAndTheOlderPagesGo() async throws {
        var (store, feed) = try launch()
        await feed.refresh().completed()
        await feed.loadNextPage().settled()
        #expect(try storedPageCount().count == 1)
        #expect(try rows("SELECT count(*) FROM content_loading_list_pages") == ["2"])

        catalog.isNoStore = true
        catalog.update(0, phone: "private")
        await feed.refresh().completed()
        #expect(feed.items.map(\.phone) == ["private", "1", "2"], "shown")
        #expect(feed.state.error == nil)
        #expect(try storedPageCount().isEmpty, "no page in the file, the older ones removed too")
        #expect(try rows("SELECT count(*) FROM content_loading_elements") == ["0"], "nor their elements")

        #expect(await feed.loadNextPage().settled() == .idle)
        #expect(feed.items.map(\.id) == Array(0..<6), "pages on from the server")
        #expect(try storedPageCount().isEmpty)
        #expect(try rows("SELECT count(*) FROM content_loading_elements") == ["0"])

        catalog.isOnline = false
        (store, feed) = try launch()
        let opened = await feed.refresh().completed()
        #expect(opened.content == nil && opened.error != nil, "nothing stored to open with, offline")
        _ = store
    }

    @Test func aLaterPageTheServerSaysNotToStoreIsShownAndNotStored() async throws {
        let (_, feed) = try launch()
        await feed.refresh().completed()
        catalog.isNoStore = true
        #expect(await feed.loadNextPage().settled() == .idle)
        #expect(feed.items.map(\.id) == Array(0..<6))
        #expect(try rows("SELECT position FROM content_loading_list_pages") == ["0"], "the initial page stays")
        #expect(try rows("SELECT count(*) FROM content_loading_elements") == ["3"], "the next page's are not stored")
    }
}
