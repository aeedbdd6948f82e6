import ContentLoading
import ContentLoadingSupport
import ContentLoadingTesting

struct Item: Identifiable, Hashable, Sendable {
    let id: Int
    var title: String = ""
}

struct PageRequest: Sendable, Hashable {
    let input: String
    let cursor: Int?
}

func makeItems(_ range: Range<Int>) -> [Item] { range.map { Item(id: $0) } }

func page(_ range: Range<Int>, next: Int?) -> Page<Item, Int> { Page(items: makeItems(range), nextCursor: next) }

/// A cursor pager whose every page request the test completes.
final class ControlledPager: PagingListViewModel<String, Item, Int> {
    let loader: ControlledLoader<PageRequest, Page<Item, Int>>

    init(
        loader: ControlledLoader<PageRequest, Page<Item, Int>>, prefetchDistance: Int = 5, pageWindow: Int? = nil,
        deduplicate: Bool = false
    ) {
        self.loader = loader
        let byID: @Sendable (Item) -> any Hashable & Sendable = { item in item.id }
        let key = deduplicate ? byID : nil
        super.init(prefetchDistance: prefetchDistance, pageWindow: pageWindow, deduplicatingBy: key)
    }

    override func loadPage(_ input: String, cursor: Int?) async throws -> Page<Item, Int> {
        try await loader.load(PageRequest(input: input, cursor: cursor))
    }
}

struct PageFailure: Error, Equatable { let offset: Int }

/// An offset pager over an array, answering at once; optionally failing one offset once.
final class ArrayPager: OffsetPagingListViewModel<Void, Item> {
    let all: [Item]
    let requests = Locked<[Int]>([])
    let failOnce = Locked<Int?>(nil)

    init(count: Int, pageSize: Int, failingOnceAt offset: Int? = nil) {
        all = makeItems(0..<count)
        failOnce.withLock { $0 = offset }
        super.init(pageSize: pageSize)
    }

    override func loadPage(_ input: Void, offset: Int, limit: Int) async throws -> OffsetPage<Item> {
        requests.withLock { $0.append(offset) }
        if failOnce.withLock({ failing in
            defer { if failing == offset { failing = nil } }; return failing == offset
        }) {
            throw PageFailure(offset: offset)
        }
        return OffsetPage(
            items: Array(all[min(offset, all.count)..<min(offset + limit, all.count)]), totalCount: all.count)
    }
}

/// A source of `total` items in pages of `pageSize` at multiples of it, paged both ways from
/// the page that holds the input offset; answers at once, failing the offsets in `failing`
/// once each.
final class TwoWayPager: PagingListViewModel<Int, Item, Int> {
    let total: Int
    let pageSize: Int
    let failing = Locked<Set<Int>>([])
    let requests = Locked<[Int?]>([])

    init(total: Int, pageSize: Int, prefetchDistance: Int = 2, pageWindow: Int? = nil, deduplicate: Bool = false) {
        self.total = total
        self.pageSize = pageSize
        let byID: @Sendable (Item) -> any Hashable & Sendable = { item in item.id }
        super.init(
            prefetchDistance: prefetchDistance, pageWindow: pageWindow, deduplicatingBy: deduplicate ? byID : nil)
    }

    override func loadPage(_ start: Int, cursor: Int?) async throws -> Page<Item, Int> {
        requests.withLock { $0.append(cursor) }
        let offset = cursor ?? start / pageSize * pageSize
        if failing.withLock({ $0.remove(offset) }) != nil { throw PageFailure(offset: offset) }
        return Page(
            items: makeItems(offset..<min(offset + pageSize, total)),
            previousCursor: offset > 0 ? offset - pageSize : nil,
            nextCursor: offset + pageSize < total ? offset + pageSize : nil)
    }
}
