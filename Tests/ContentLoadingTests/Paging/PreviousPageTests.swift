import ContentLoading
import ContentLoadingSupport
import ContentLoadingTesting
import KitTestSupport
import Testing

/// Paging backwards: previous pages, a list opened in the middle, and a page window that
/// brings dropped pages back.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct PreviousPageTests {
    @Test func aListOpenedInTheMiddleLoadsEarlierPagesUntilTheStart() async throws {
        let model = TwoWayPager(total: 100, pageSize: 10)
        #expect(await model.refresh(57).settled().content?.map(\.id) == Array(50..<60))
        #expect(model.previousPageState == .idle)
        #expect(model.nextPageState == .idle)
        for start in stride(from: 40, through: 0, by: -10) {
            #expect(await model.loadPreviousPage().settled() != .loading)
            #expect(model.items.first?.id == start)
        }
        #expect(model.items.map(\.id) == Array(0..<60))
        #expect(model.previousPageState == .endReached)
        #expect(!model.items.hasPrevious)
        #expect(model.loadPreviousPage().isSettled, "nothing more before the start: no request")
        #expect(model.requests.withLock { $0.count } == 6)
    }

    /// A page load cancelled when the window dropped pages at its end, whose loader ignores
    /// the cancellation, answers late, after a new load started at that end: its page (for the
    /// cursor before the drop) is not added, which would leave a gap in the list.
    @Test func aCancelledPageThatAnswersLateIsNotAddedToTheNextLoadAtItsEnd() async throws {
        let loader = ControlledLoader<PageRequest, Page<Item, Int>>(honorsCancellation: false)
        let model = ControlledPager(loader: loader, pageWindow: 2)
        func twoWay(_ range: Range<Int>) -> Page<Item, Int> {
            Page(items: makeItems(range), previousCursor: range.lowerBound - 10, nextCursor: range.upperBound)
        }
        let first = model.refresh("q")
        loader.complete(try await loader.call(0), returning: twoWay(50..<60))
        _ = await first.settled()
        model.loadPreviousPage()
        let stale = try await loader.call(1)
        #expect(stale.input.cursor == 40)
        for (index, range) in [(2, 60..<70), (3, 70..<80)] {
            let next = model.loadNextPage()
            loader.complete(try await loader.call(index), returning: twoWay(range))
            _ = await next.settled()
        }
        #expect(model.items.map(\.id) == Array(60..<80), "the window dropped 50..<60 and cancelled the previous page")
        let previous = model.loadPreviousPage()
        let current = try await loader.call(4)
        #expect(current.input.cursor == nil, "the dropped page is reloaded as it was first requested")
        loader.complete(stale, returning: twoWay(40..<50))
        loader.complete(current, returning: twoWay(50..<60))
        _ = await previous.settled()
        #expect(model.items.map(\.id) == Array(50..<70), "the late page of the cancelled load was not added")
    }

    @Test func previousAndNextPagesLoadIndependentlyEachSingleFlight() async throws {
        let loader = ControlledLoader<PageRequest, Page<Item, Int>>()
        let model = ControlledPager(loader: loader)
        let first = model.refresh("q")
        loader.complete(
            try await loader.call(0), returning: Page(items: makeItems(50..<60), previousCursor: 40, nextCursor: 60))
        _ = await first.settled()
        let previous = model.loadPreviousPage()
        let next = model.loadNextPage()
        let previousAgain = model.loadPreviousPage()
        let nextAgain = model.loadNextPage()
        #expect(!previousAgain.isSettled && !nextAgain.isSettled, "each awaits the page loading at its end")
        #expect(model.previousPageState == .loading && model.nextPageState == .loading)
        let calls = [try await loader.call(1), try await loader.call(2)]
        #expect(loader.calls.count == 3, "one request per end")
        let previousCall = try #require(calls.first { $0.input.cursor == 40 })
        let nextCall = try #require(calls.first { $0.input.cursor == 60 })
        loader.complete(nextCall, returning: Page(items: makeItems(60..<70), previousCursor: 50, nextCursor: nil))
        #expect(await next.settled() == .endReached)
        #expect(await nextAgain.settled() == .endReached)
        #expect(!previousAgain.isSettled, "the previous page is still on its way")
        #expect(model.previousPageState == .loading, "the previous page is still on its way")
        loader.complete(previousCall, returning: Page(items: makeItems(40..<50), previousCursor: nil, nextCursor: 50))
        #expect(await previous.settled() == .endReached)
        #expect(await previousAgain.settled() == .endReached)
        #expect(model.items.map(\.id) == Array(40..<70))
    }

    @Test func aFailedPreviousPageKeepsTheListAndItsOwnStateAndRetries() async throws {
        let model = TwoWayPager(total: 100, pageSize: 10)
        _ = await model.refresh(50).settled()
        model.failing.withLock { $0 = [40] }
        let failed = await model.loadPreviousPage().settled()
        #expect(failed == .failed(PageFailure(offset: 40)))
        #expect(model.nextPageState == .idle, "the next page is not affected")
        #expect(model.state == .success(model.items) && model.items.map(\.id) == Array(50..<60))
        #expect(model.loadPreviousPage().isSettled, "a failed page waits for an explicit retry")
        #expect(await model.retryPreviousPage().settled() == .idle)
        #expect(model.items.map(\.id) == Array(40..<60))
    }

    @Test func aWindowDropsPagesAtTheFarEndAndPagingBackBringsThemBack() async throws {
        let model = TwoWayPager(total: 100, pageSize: 10, pageWindow: 3)
        _ = await model.refresh(0).settled()
        for _ in 0..<4 { await model.loadNextPage().settled() }
        #expect(model.items.map(\.id) == Array(20..<50))
        #expect(model.items.itemsBefore == 20, "item i is item 20 + i of the whole list")
        #expect(model.items.hasPrevious, "the dropped pages can come back")
        #expect(model.previousPageState == .idle)

        #expect(await model.loadPreviousPage().settled() == .idle)
        #expect(model.items.map(\.id) == Array(10..<40), "the last page dropped when the first came back")
        #expect(model.items.itemsBefore == 10)
        #expect(await model.loadPreviousPage().settled() == .endReached)
        #expect(model.items.map(\.id) == Array(0..<30))
        #expect(model.items.itemsBefore == 0)
        #expect(model.requests.withLock { $0 }.suffix(2) == [10, nil], "page 0 again, by the initial request")

        #expect(await model.loadNextPage().settled() == .idle)
        #expect(model.items.map(\.id) == Array(10..<40), "the page dropped from the end comes back")
    }

    @Test func rowsNearTheStartLoadThePreviousPage() async throws {
        let model = TwoWayPager(total: 100, pageSize: 10, prefetchDistance: 2)
        _ = await model.refresh(50).settled()
        #expect(model.loadMoreIfNeeded(currentIndex: 5).isSettled, "the middle starts nothing")
        #expect(await model.loadMoreIfNeeded(currentItem: Item(id: 52)).settled() == .idle)
        #expect(model.items.first?.id == 40)
        #expect(await model.loadMoreIfNeeded(currentIndex: model.items.count - 1).settled() == .idle)
        #expect(model.items.last?.id == 69)
    }

    @Test func aRefreshCancelsThePreviousPage() async throws {
        let loader = ControlledLoader<PageRequest, Page<Item, Int>>()
        let model = ControlledPager(loader: loader)
        let first = model.refresh("q")
        loader.complete(
            try await loader.call(0), returning: Page(items: makeItems(50..<60), previousCursor: 40, nextCursor: nil))
        _ = await first.settled()
        let previous = model.loadPreviousPage()
        _ = try await loader.call(1)
        let again = model.refresh("q")
        #expect(await previous.settled() == .idle)
        loader.complete(try await loader.call(2), returning: Page(items: makeItems(0..<5), nextCursor: nil))
        #expect(await again.settled().content?.map(\.id) == Array(0..<5))
        #expect(model.previousPageState == .endReached)
    }

    @Test func offsetPagingOpensInTheMiddleAndPagesBack() async throws {
        let model = MiddleArrayPager(count: 100, pageSize: 10, initialOffset: 57)
        #expect(await model.refresh().settled().content?.map(\.id) == Array(50..<60))
        #expect(await model.loadPreviousPage().settled() == .idle)
        #expect(model.items.map(\.id) == Array(40..<60))
        for _ in 0..<4 { await model.loadPreviousPage().settled() }
        #expect(model.items.map(\.id) == Array(0..<60))
        #expect(model.previousPageState == .endReached)
    }

    /// Forward, back, refresh and failures at random, window 3: the items are always a
    /// contiguous run of the source, with no duplicates or gaps, and `itemsBefore` says where;
    /// no page fails for a cursor cycle the source does not have.
    @Test(arguments: [1, 2, 3, 4])
    func randomPagingBothWaysKeepsAContiguousRun(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let model = TwoWayPager(total: 200, pageSize: 10, pageWindow: 3)
        _ = await model.refresh(0).settled()
        for step in 0..<300 {
            if Int.random(in: 0..<5, using: &random) == 0 {
                let offset = Int.random(in: 0..<20, using: &random) * 10
                model.failing.withLock { _ = $0.insert(offset) }
            }
            switch Int.random(in: 0..<20, using: &random) {
            case 0: _ = await model.refresh(0).settled()
            case 1..<9: await model.loadNextPage().settled()
            case 9..<16: await model.loadPreviousPage().settled()
            case 16..<18:
                // Both ends at once.
                let next = model.loadNextPage()
                let previous = model.loadPreviousPage()
                await next.settled()
                await previous.settled()
            default:
                await model.retryNextPage().settled()
                await model.retryPreviousPage().settled()
            }
            let ids = model.items.map(\.id)
            #expect(ids == Array((ids.first ?? 0)..<((ids.first ?? 0) + ids.count)), "step \(step): \(ids)")
            #expect(ids.count <= 30, "step \(step): the window holds 3 pages")
            #expect((ids.first ?? 0) == model.items.itemsBefore, "step \(step): itemsBefore")
            // NB: the source has no cycle: pages loaded again, going back and forth through the
            // window, are never taken for one.
            for state in [model.nextPageState, model.previousPageState] {
                if case .failed(let error) = state {
                    #expect(!(error is RepeatedCursorError), "step \(step): \(error)")
                }
            }
        }
    }
}

/// An offset pager that opens at an offset in the middle.
final class MiddleArrayPager: OffsetPagingListViewModel<Void, Item> {
    let all: [Item]
    let opening: Int

    init(count: Int, pageSize: Int, initialOffset: Int) {
        all = makeItems(0..<count)
        opening = initialOffset
        super.init(pageSize: pageSize)
    }

    override func initialOffset(for input: Void) -> Int { opening }

    override func loadPage(_ input: Void, offset: Int, limit: Int) async throws -> OffsetPage<Item> {
        OffsetPage(items: Array(all[min(offset, all.count)..<min(offset + limit, all.count)]), totalCount: all.count)
    }
}
