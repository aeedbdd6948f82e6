import ContentLoading
import ContentLoadingTesting
import KitTestSupport
import Testing

@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct PagingListViewModelTests {
    let loader = ControlledLoader<PageRequest, Page<Item, Int>>()

    /// Refreshes `model` with "q" and completes its first page with items 0..<25.
    private func loadFirstPage(_ model: ControlledPager, next: Int? = 25) async throws {
        let handle = model.refresh("q")
        let call = try await loader.call(loader.calls.count)
        #expect(call.input == PageRequest(input: "q", cursor: nil))
        loader.complete(call, returning: page(0..<25, next: next))
        await handle.settled()
    }

    @Test func nextPagesAppendUntilTheEnd() async throws {
        let model = ControlledPager(loader: loader)
        let pageStates = StreamRecorder(model.nextPageStateUpdates)
        model.loadNextPage()
        #expect(loader.calls.isEmpty, "no next page before the first")
        try await loadFirstPage(model)
        #expect(model.items.count == 25)
        model.loadNextPage()
        let second = try await loader.call(1)
        #expect(second.input == PageRequest(input: "q", cursor: 25))
        loader.complete(second, returning: page(25..<50, next: nil))
        #expect(try await pageStates.values(count: 3) == [.idle, .loading, .endReached])
        #expect(model.items.map(\.id) == Array(0..<50))
        #expect(model.state.phase == .success)
        model.loadNextPage()
        #expect(loader.calls.count == 2, "nothing to load at the end")
    }

    @Test func concurrentNextPageCallsMakeOneRequestPerPage() async throws {
        let model = ControlledPager(loader: loader)
        let pageStates = StreamRecorder(model.nextPageStateUpdates)
        try await loadFirstPage(model)
        for _ in 0..<50 { model.loadNextPage() }
        loader.complete(try await loader.call(1), returning: page(25..<50, next: 50))
        #expect(try await pageStates.values(count: 3) == [.idle, .loading, .idle])
        for _ in 0..<50 { model.loadNextPage() }
        loader.complete(try await loader.call(2), returning: page(50..<60, next: nil))
        #expect(try await pageStates.values(count: 5).last == .endReached)
        #expect(loader.calls.map(\.input.cursor) == [nil, 25, 50])
        #expect(model.items.count == 60)
    }

    @Test func refreshCancelsTheNextPageAndKeepsTheListUntilTheFirstPageArrives() async throws {
        let model = ControlledPager(loader: loader)
        let recorder = StateRecorder(model)
        try await loadFirstPage(model)
        model.loadNextPage()
        _ = try await loader.call(1)
        let refreshed = model.refresh("q")
        #expect(loader.pendingCalls.map(\.index) == [], "the next page was cancelled")
        #expect(model.nextPageState == .idle)
        #expect(model.items.count == 25, "the old list stays visible while the first page loads")
        loader.complete(try await loader.call(2), returning: page(100..<110, next: 110))
        await refreshed.settled()
        #expect(model.items.map(\.id) == Array(100..<110))
        let states = try await recorder.states(count: 5)
        #expect(states.map(\.phase) == [.unloaded, .loading, .success, .loading, .success])
        #expect(states[3].content?.count == 25, "no flash of empty: loading carries the old list")
    }

    @Test func lateNextPageOfAReplacedListIsDiscarded() async throws {
        let stubborn = ControlledLoader<PageRequest, Page<Item, Int>>(honorsCancellation: false)
        let model = ControlledPager(loader: stubborn)
        let recorder = StateRecorder(model)
        let first = model.refresh("q")
        stubborn.complete(try await stubborn.call(0), returning: page(0..<25, next: 25))
        await first.settled()
        model.loadNextPage()
        let late = try await stubborn.call(1)
        let refreshed = model.refresh("q")
        stubborn.complete(try await stubborn.call(2), returning: page(100..<105, next: nil))
        await refreshed.settled()
        stubborn.complete(late, returning: page(25..<50, next: 50))
        // Another full load cycle, so the late page has been delivered (and discarded) before
        // the states are read; had it been appended, a state would hold its items.
        let again = model.refresh("q")
        stubborn.complete(try await stubborn.call(3), returning: page(200..<210, next: nil))
        await again.settled()
        #expect(recorder.states.allSatisfy { !($0.content?.contains { (25..<50).contains($0.id) } ?? false) })
        #expect(model.items.map(\.id) == Array(200..<210))
        #expect(model.nextPageState == .endReached)
    }

    @Test func failedPageKeepsEarlierPagesAndRetries() async throws {
        let model = ControlledPager(loader: loader)
        let pageStates = StreamRecorder(model.nextPageStateUpdates)
        try await loadFirstPage(model)
        model.loadNextPage()
        loader.complete(try await loader.call(1), throwing: PageFailure(offset: 25))
        #expect(try await pageStates.values(count: 3) == [.idle, .loading, .failed(PageFailure(offset: 25))])
        #expect(model.items.count == 25)
        #expect(model.state.phase == .success)
        model.loadNextPage()
        #expect(loader.calls.count == 2, "a failed page waits for an explicit retry")
        model.retryNextPage()
        let retry = try await loader.call(2)
        #expect(retry.input.cursor == 25)
        loader.complete(retry, returning: page(25..<50, next: nil))
        #expect(try await pageStates.values(count: 5).suffix(2) == [.loading, .endReached])
        #expect(model.items.count == 50)
    }

    @Test func prefetchLoadsWithinTheDistanceOfTheEnd() async throws {
        let model = ControlledPager(loader: loader, prefetchDistance: 5)
        try await loadFirstPage(model)
        model.loadMoreIfNeeded(currentIndex: 18)
        model.loadMoreIfNeeded(currentItem: Item(id: 18))
        #expect(model.nextPageState == .idle)
        model.loadMoreIfNeeded(currentItem: Item(id: 19))
        #expect(model.nextPageState == .loading)
        let call = try await loader.call(1)
        #expect(call.input.cursor == 25)
        // NB: the test finishes the load it started (a suspended load would outlive the test).
        let pageStates = StreamRecorder(model.nextPageStateUpdates)
        loader.complete(call, returning: page(25..<30, next: nil))
        #expect(try await pageStates.values(count: 2).last == .endReached)
    }

    /// A distance below 0 counts as 0: the next page loads at the last item. `Int.min`
    /// overflowed the comparison and stopped the process.
    @Test(arguments: [-1, Int.min])
    func aPrefetchDistanceBelowZeroLoadsAtTheLastItem(distance: Int) async throws {
        let model = ControlledPager(loader: loader, prefetchDistance: distance)
        try await loadFirstPage(model)
        model.loadMoreIfNeeded(currentIndex: 23)
        #expect(model.nextPageState == .idle)
        model.loadMoreIfNeeded(currentIndex: 24)
        #expect(model.nextPageState == .loading)
        let pageStates = StreamRecorder(model.nextPageStateUpdates)
        loader.complete(try await loader.call(1), returning: page(25..<30, next: nil))
        #expect(try await pageStates.values(count: 2).last == .endReached)
    }

    /// A window of 2 drops the oldest pages; one below 1 keeps every page, as no window does
    /// (documented on `pageWindow`).
    @Test(arguments: [(window: 2, shown: 25..<75), (window: 0, shown: 0..<75), (window: -1, shown: 0..<75)])
    func pageWindowDropsTheOldestPages(window: Int, shown: Range<Int>) async throws {
        let model = ControlledPager(loader: loader, pageWindow: window)
        let pageStates = StreamRecorder(model.nextPageStateUpdates)
        try await loadFirstPage(model)
        for (index, range) in [(1, 25..<50), (2, 50..<75)] {
            model.loadNextPage()
            loader.complete(try await loader.call(index), returning: page(range, next: range.upperBound))
            _ = try await pageStates.values(count: 1 + 2 * index)
        }
        #expect(model.items.map(\.id) == Array(shown))
        #expect(model.content?.pagesLoaded == 3)
    }

    @Test func overlappingPagesAreDeduplicatedByID() async throws {
        let model = ControlledPager(loader: loader, deduplicate: true)
        let pageStates = StreamRecorder(model.nextPageStateUpdates)
        try await loadFirstPage(model)
        model.loadNextPage()
        loader.complete(try await loader.call(1), returning: page(20..<45, next: nil))
        _ = try await pageStates.values(count: 3)
        #expect(model.items.map(\.id) == Array(0..<45))
    }

    @Test func aPageThatRepeatsAnIDWithinItselfFailsByTheDuplicateIDRule() async throws {
        let model = ControlledPager(loader: loader, deduplicate: true)
        let pageStates = StreamRecorder(model.nextPageStateUpdates)
        try await loadFirstPage(model)
        model.loadNextPage()
        let repeated = Page(items: makeItems(25..<30) + [Item(id: 27)], nextCursor: 31)
        loader.complete(try await loader.call(1), returning: repeated)
        let states = try await pageStates.values(count: 3)
        guard case .failed(let error) = states.last else {
            Issue.record("expected the page to fail, got \(states)")
            return
        }
        #expect(error as? DuplicateIDError == DuplicateIDError(id: "27", firstPosition: 2, duplicatePosition: 5))
        #expect(model.items.map(\.id) == Array(0..<25), "the pages before it stay")

        let first = ControlledPager(loader: ControlledLoader(), deduplicate: true)
        let handle = first.refresh("q")
        first.loader.complete(
            try await first.loader.call(0), returning: Page(items: makeItems(0..<2) + makeItems(0..<1), nextCursor: nil)
        )
        #expect(await handle.settled().error is DuplicateIDError)
    }

    @Test func itemsAreReplacedAndRemovedByIDWithoutReloading() async throws {
        let model = ControlledPager(loader: loader)
        try await loadFirstPage(model)
        #expect(model.replaceItem(Item(id: 3, title: "edited")))
        #expect(model.item(at: 3)?.title == "edited")
        #expect(model.removeItem(id: 4))
        #expect(!model.removeItem(id: 999))
        #expect(model.items.count == 24)
        #expect(model.itemDifferenceByID?.removals.count == 1)
        #expect(loader.calls.count == 1)
    }
}

@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct OffsetPagingTests {
    @Test func listSizeAMultipleOfThePageSizeMakesNoEmptyRequest() async throws {
        let model = ArrayPager(count: 50, pageSize: 25)
        let pageStates = StreamRecorder(model.nextPageStateUpdates)
        await model.refresh().settled()
        model.loadNextPage()
        #expect(try await pageStates.values(count: 3) == [.idle, .loading, .endReached])
        model.loadNextPage()
        #expect(model.requests.withLock { $0 } == [0, 25])
        #expect(model.items.count == 50)
    }

    @Test func emptyListIsEmptyAndAtTheEnd() async throws {
        let model = ArrayPager(count: 0, pageSize: 25)
        #expect(await model.refresh().settled().phase == .empty)
        #expect(model.nextPageState == .endReached)
    }

    @Test func offsetPageComputesTheNextCursor() {
        #expect(Page<Item, Int>.offset(makeItems(0..<25), at: 0, limit: 25, totalCount: 60).nextCursor == 25)
        #expect(Page<Item, Int>.offset(makeItems(50..<60), at: 50, limit: 25, totalCount: 60).nextCursor == nil)
        #expect(Page<Item, Int>.offset(makeItems(0..<25), at: 0, limit: 25, totalCount: nil).nextCursor == 25)
        #expect(Page<Item, Int>.offset(makeItems(0..<3), at: 0, limit: 25, totalCount: nil).nextCursor == nil)
    }
}

@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct ListLoadingViewModelTests {
    final class Numbers: ListLoadingViewModel<Int, Int> {
        override func load(_ count: Int) async throws -> [Int] { Array(0..<count) }
    }

    @Test func itemAccessIsSafeAndDifferencesAreExposed() async throws {
        let model = Numbers()
        #expect(model.item(at: 0) == nil)
        #expect(model.itemDifference == nil)
        await model.refresh(3).settled()
        #expect(model.item(at: 2) == 2)
        #expect(model.item(at: 3) == nil)
        #expect(model.item(at: -1) == nil)
        await model.refresh(5).settled()
        #expect(model.itemDifference?.insertions.count == 2)
        #expect(await model.refresh(0).settled() == .empty)
        #expect(model.items.isEmpty)
        #expect(model.itemDifference?.removals.count == 5)
    }
}
