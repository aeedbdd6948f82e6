import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import Foundation
import Testing

/// A source whose cursors are offsets (the page after item 2 is "from 2" whatever items 0 and 1
/// are): a refreshed initial page that holds other ids takes the stored pages after it with it,
/// since each of them now starts somewhere else.
extension PersistedPagingTests {
    typealias OffsetFeed = PagingListViewModel<Void, Contact, Int>

    /// A server of contacts in pages of 2, each page's next cursor the offset of the one after.
    final class OffsetCatalog: Sendable {
        let contacts = Locked((0..<6).map { Contact(id: $0, phone: "\($0)") })
        /// The offset of every request answered, `-` for the initial page.
        let requests = Locked<[String]>([])

        func page(from offset: Int?) -> Page<Contact, Int> {
            requests.withLock { $0.append(offset.map { "\($0)" } ?? "-") }
            let all = contacts.withLock { $0 }
            let start = min(offset ?? 0, all.count)
            let end = min(start + 2, all.count)
            return Page(items: Array(all[start..<end]), nextCursor: end < all.count ? end : nil)
        }
    }

    /// A model over the file's store of the pages `catalog` serves, under "offsets".
    func offsetFeed(_ catalog: OffsetCatalog) throws -> OffsetFeed {
        let store = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        return OffsetFeed(source: .persisted(in: store, key: "offsets") { offset in catalog.page(from: offset) })
    }

    @Test func aRefreshedInitialPageWithOtherIdsTakesTheStoredPagesAfterItWithIt() async throws {
        let catalog = OffsetCatalog()
        let feed = try offsetFeed(catalog)
        await feed.refresh().completed()
        await feed.loadNextPage().settled()
        await feed.loadNextPage().settled()
        #expect(feed.items.map(\.id) == [0, 1, 2, 3, 4, 5])

        catalog.contacts.withLock { $0.insert(Contact(id: 100, phone: "new"), at: 0) }
        await feed.refresh().completed()
        #expect(feed.items.map(\.id) == [100, 0])
        #expect(try rows("SELECT count(*) FROM content_loading_list_pages") == ["1"], "the initial page alone")
        for _ in 0..<3 { await feed.loadNextPage().settled() }
        #expect(feed.items.map(\.id) == [100, 0, 1, 2, 3, 4, 5], "contact 1, now on the second page, is not lost")
        #expect(catalog.requests.withLock { $0 } == ["-", "2", "4", "-", "2", "4", "6"])
        #expect(feed.nextPageState == .endReached)
    }

    @Test func aRefreshedInitialPageWithTheSameIdsKeepsTheStoredPagesAfterIt() async throws {
        let catalog = OffsetCatalog()
        let feed = try offsetFeed(catalog)
        await feed.refresh().completed()
        await feed.loadNextPage().settled()

        catalog.contacts.withLock { $0[0].phone = "zero" }
        await feed.refresh().completed()
        #expect(feed.items.map(\.phone) == ["zero", "1"])
        await feed.loadNextPage().settled()
        #expect(feed.items.map(\.id) == [0, 1, 2, 3])
        #expect(catalog.requests.withLock { $0 } == ["-", "2", "-"], "the stored second page, with no request")
    }
}
