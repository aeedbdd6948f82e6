import ContentLoading
import ContentLoadingRepository
import ContentLoadingTesting
import Foundation
import Testing

/// Stored pages the file damaged, online again: what could not be read is named once, and the
/// list is whole again from the server; no bad row keeps the list short or stuck.
extension PersistedPagingTests {
    /// The feed's first two pages stored, `corruption` run on the file, then the feed launched
    /// again, online or not, and refreshed.
    private func relaunched(afterTwoPagesAnd corruption: String, isOnline: Bool) async throws -> Feed {
        let (_, feed) = try launch()
        await feed.refresh().completed()
        await feed.loadNextPage().settled()
        _ = try rows(corruption)
        catalog.isOnline = isOnline
        let (_, relaunched) = try launch()
        await relaunched.refresh().completed()
        return relaunched
    }

    /// The initial page's stored validators still match the server's page: a refresh that sent
    /// them was answered 304 and kept the page without its element, refresh after refresh.
    @Test func anInitialPageServedWithoutABadElementRowIsFetchedInFullAndTheElementComesBack() async throws {
        var (_, feed) = try launch()
        await feed.refresh().completed()
        _ = try rows("UPDATE content_loading_elements SET value = X'7B7D' WHERE id = '1'")

        (_, feed) = try launch()
        let recorder = StateRecorder(feed)
        let refreshed = await feed.refresh().completed()
        let errors = recorder.states.compactMap { $0.error as? CacheError }.map(\.description)
        #expect(errors.count == 1 && errors.first?.contains("its element 1 does not decode") == true, "\(errors)")
        #expect(refreshed.error == nil)
        #expect(feed.items.map(\.id) == [0, 1, 2], "the element is back from the server")
        #expect(catalog.notModified == 0, "asked without the validators of the page it could not serve whole")
        #expect(try rows("SELECT count(*) FROM content_loading_elements") == ["3"])

        catalog.isOnline = false
        (_, feed) = try launch()
        await feed.refresh().completed()
        #expect(feed.items.map(\.id) == [0, 1, 2], "and stored")
    }

    /// A later page is not revalidated: served without an element whose row went bad, it would
    /// stay short for as long as the first page did not change. It is asked of the source at
    /// once instead, the error beside it; offline, it is served as stored, and asked of the
    /// source at its next load (its bad rows are gone by then: the file marks the page).
    @Test(arguments: [true, false])
    func aLaterPageWithABadElementRowIsFetchedAgainOrOfflineServedAsStored(isOnline: Bool) async throws {
        var feed = try await relaunched(
            afterTwoPagesAnd: "UPDATE content_loading_elements SET value = X'7B7D' WHERE id IN ('4', '5')",
            isOnline: isOnline)
        let requests = catalog.requests.count
        #expect(await feed.loadNextPage().settled() == .idle)
        let error = try #require(feed.state.error as? CacheError, "the error beside the list")
        #expect(error.description.contains("elements 4, 5 do not decode"), "\(error)")
        if !isOnline {
            #expect(feed.items.map(\.id) == [0, 1, 2, 3], "offline, the rest of the stored page")
            catalog.isOnline = true
            (_, feed) = try launch()
            await feed.refresh().completed()
            #expect(await feed.loadNextPage().settled() == .idle)
            #expect(feed.state.error == nil, "named once, when it was found")
        }
        #expect(feed.items.map(\.id) == Array(0..<6), "whole again, from the source")
        #expect(catalog.requests.count == requests + (isOnline ? 1 : 2))
        #expect(try rows("SELECT count(*) FROM content_loading_elements") == ["6"])
        #expect(await feed.loadNextPage().settled() == .idle)
        #expect(feed.items.map(\.id) == Array(0..<9), "and pages on")
        try expectContiguous()
    }

    /// A page row that does not read (its ids or a cursor not what the kit wrote) is an error
    /// naming the file and the list, removed with the pages only its cursors reached; the
    /// source is asked for it.
    @Test(arguments: [
        "UPDATE content_loading_list_pages SET ids = CAST('garbage' AS BLOB) WHERE position = 0",
        "UPDATE content_loading_list_pages SET next_cursor = 'not json' WHERE position = 0",
        "UPDATE content_loading_list_pages SET ids = CAST('garbage' AS BLOB) WHERE position = 1",
        "UPDATE content_loading_list_pages SET fetched_at = 'yesterday' WHERE position = 1",
    ])
    func aStoredPageRowThatDoesNotReadIsNamedRemovedAndFetchedAgain(corruption: String) async throws {
        var (_, feed) = try launch()
        await feed.refresh().completed()
        await feed.loadNextPage().settled()
        await feed.loadNextPage().settled()
        _ = try rows(corruption)

        (_, feed) = try launch()
        let recorder = StateRecorder(feed)
        await feed.refresh().completed()
        #expect(await feed.loadNextPage().settled() == .idle)
        #expect(await feed.loadNextPage().settled() == .idle)
        #expect(feed.items.map(\.id) == Array(0..<9), "the whole list again")
        // NB: the error stays beside the list (the state) until a refresh settles: a page loaded
        // after it shows it again.
        let errors = Set(recorder.states.compactMap { $0.error as? CacheError }.map(\.description))
        #expect(errors.count == 1, "one error: \(errors)")
        #expect(errors.first?.contains("entry pages feed in \(path)") == true, "\(errors)")
        #expect(try rows("SELECT position FROM content_loading_list_pages ORDER BY position") == ["0", "1", "2"])
        try expectContiguous()
    }

    /// Offline, a later page whose row does not read fails its load naming the file and the
    /// list; online again, the next attempt fetches it.
    @Test func offlineAStoredPageRowThatDoesNotReadFailsNamingItAndIsFetchedOnceOnline() async throws {
        let feed = try await relaunched(
            afterTwoPagesAnd: "UPDATE content_loading_list_pages SET ids = CAST('garbage' AS BLOB) WHERE position = 1",
            isOnline: false)
        guard case .failed(let error) = await feed.loadNextPage().settled() else {
            Issue.record("the page load fails")
            return
        }
        #expect("\(error)".contains("entry pages feed in \(path)"), "\(error)")
        #expect(feed.items.map(\.id) == [0, 1, 2])

        catalog.isOnline = true
        #expect(await feed.retryNextPage().settled() == .idle)
        #expect(feed.items.map(\.id) == Array(0..<6))
        try expectContiguous()
    }

    /// Every stored page of "feed" asked for by its neighbour's cursor.
    private func expectContiguous(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let pages = try rows(
            "SELECT position || '|' || ifnull(request, '') || '|' || ifnull(next_cursor, '') "
                + "FROM content_loading_list_pages ORDER BY position"
        ).map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
        for (page, next) in zip(pages, pages.dropFirst()) {
            #expect(
                next[1] == page[2], "page \(next[0]) is asked for by page \(page[0])", sourceLocation: sourceLocation)
        }
    }
}
