import ContentLoading
import ContentLoadingSupport
import KitTestSupport
import Testing

/// Offsets from outside (a deep link's, a stored position) may be anywhere up to `Int.max`:
/// an offset page's cursors never overflow, and a list never goes past `Int.max` items.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct OffsetPageBoundsTests {
    /// Opens at the offset it is refreshed with, three items a page, each item its page's offset.
    final class DeepLinkedModel: OffsetPagingListViewModel<Int, Int> {
        nonisolated override func initialOffset(for input: Int) -> Int { input }
        nonisolated override func loadPage(_ input: Int, offset: Int, limit: Int) async throws -> OffsetPage<Int> {
            OffsetPage(items: [offset, offset, offset], totalCount: nil)
        }
    }

    @Test(arguments: [Int.max, Int.max - 1, Int.max - 12])
    func aListOpenedAtAnOffsetNearIntMaxPagesOnToTheLastPageThatFits(offset: Int) async {
        // NB: the next offset, `offset + 3`, trapped (an arithmetic overflow in `Page.offset`).
        let model = DeepLinkedModel(pageSize: 3)
        let state = await model.refresh(offset).settled()
        #expect(state.content?.count == 3, "\(state)")
        #expect(model.previousPageState == .idle, "the pages before it are there to load")
        for _ in 0..<10 where model.nextPageState == .idle { await model.loadNextPage().settled() }
        #expect(model.nextPageState == .endReached)
        #expect(model.items.last.map { Int.max - $0 < 3 } == true, "up to the last page that fits: \(model.items)")
        #expect(model.items.count > 3 || offset > Int.max - 3)
    }

    @Test(arguments: [0, -1, Int.min, Int.max])
    func aPageSizeAtTheEndsOfItsRangeLoadsTheListWithoutATrap(pageSize: Int) async {
        // NB: 0 and below stopped the process at init (a precondition).
        let all = Array(0..<5)
        let limits = Locked<[Int]>([])
        let model = OffsetPagingListViewModel<Void, Int>(pageSize: pageSize) { _, offset, limit in
            limits.withLock { $0.append(limit) }
            return OffsetPage(items: Array(all.dropFirst(offset).prefix(limit)), totalCount: all.count)
        }
        #expect(model.pageSize == max(1, pageSize))
        let state = await model.refresh(()).settled()
        #expect(state.content?.isEmpty == false, "\(state)")
        for _ in 0..<10 where model.nextPageState == .idle { await model.loadNextPage().settled() }
        #expect(Array(model.items) == all)
        #expect(model.nextPageState == .endReached)
        #expect(limits.withLock { $0 }.allSatisfy { $0 == max(1, pageSize) }, "\(limits.withLock { $0 })")
    }

    @Test func anOffsetPageCursorsStayWithinZeroAndIntMax() {
        let last = Page<Int, Int>.offset([1, 2, 3], at: .max - 2, limit: 3, totalCount: nil)
        #expect(last.nextCursor == nil)
        #expect(last.previousCursor == .max - 5)
        let past = Page<Int, Int>.offset([1, 2, 3], at: .max, limit: .max, totalCount: .max)
        #expect(past.nextCursor == nil)
        #expect(past.previousCursor == 0)
        for limit in [-3, Int.min] {
            // NB: `offset - limit` trapped for `Int.min`; a limit below zero reaches back nowhere.
            let page = Page<Int, Int>.offset([1, 2, 3], at: 5, limit: limit, totalCount: nil)
            #expect(page.previousCursor == 5, "limit \(limit)")
            #expect(page.nextCursor == 8)
        }
    }
}
