import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import Foundation
import KitTestSupport
import Testing

/// A persisted paging list whose server gives a page's own cursor as its next cursor: the page
/// load fails with `RepeatedCursorError`, from the network and, at the next launch, from the
/// stored page, rather than serving that page again at every call.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct PersistedPagingRepeatedCursorTests {
    typealias Contact = ElementStoreTests.Contact

    let path: String
    let requests = Locked<[String?]>([])
    init() throws { path = try temporaryCachePath() }

    /// A store over the file and a model over its "feed": the initial page goes on to "b",
    /// and the page at "b" goes on to "b".
    func launch() throws -> PagingListViewModel<Void, Contact, String> {
        let store = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        let requests = requests
        return PagingListViewModel(
            source: .persisted(in: store, key: "feed") { cursor, _ in
                requests.withLock { $0.append(cursor) }
                let page = Page(items: [Contact(id: cursor == nil ? 1 : 2, phone: cursor ?? "-")], nextCursor: "b")
                return .modified(page, Validators())
            })
    }

    @Test func aStoredPageWhoseNextCursorRepeatsFailsItsLoadAtEveryLaunch() async throws {
        let repeated = NextPageState.failed(RepeatedCursorError(cursor: "b", isNextCursor: true))
        var feed = try launch()
        await feed.refresh().completed()
        await feed.loadNextPage().settled()
        #expect(feed.nextPageState == repeated)
        #expect(feed.items.map(\.id) == [1])
        await feed.retryNextPage().settled()
        #expect(feed.nextPageState == repeated)
        #expect(requests.withLock { $0 } == [nil, "b"], "the retry read the stored page")

        feed = try launch()
        await feed.refresh().completed()
        await feed.loadNextPage().settled()
        #expect(feed.nextPageState == repeated)
        #expect(feed.items.map(\.id) == [1])
        #expect(requests.withLock { $0 } == [nil, "b", nil])
    }
}
