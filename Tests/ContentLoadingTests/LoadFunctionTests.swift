import ContentLoading
import ContentLoadingSupport
import ContentLoadingTesting
import KitTestSupport
import Testing

/// Models made with a load function (`init(load:)`, `init(loadPage:)`, or a subclass that hands
/// its function to `super.init`), the style the docs lead with: the compiler checks that the
/// function is nonisolated, so it runs off the main actor even when written in main-actor code,
/// and it does not hold the model, so releasing the model cancels the load.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct LoadFunctionIsolationTests {
    @Test func functionsWrittenOnTheMainActorRunOffIt() async {
        let (single, paging, offset) = await MainActor.run {
            (
                ContentLoadingViewModel<Int, Int> { $0 * 2 },
                PagingListViewModel<Int, Int, Int> { input, _ in Page(items: [input], nextCursor: nil) },
                OffsetPagingListViewModel<Int, Int> { input, _, _ in OffsetPage(items: [input], totalCount: 1) }
            )
        }
        #expect(await finishesWhileMainActorIsBusy { _ = try await single.load(1) })
        #expect(await finishesWhileMainActorIsBusy { _ = try await paging.loadPage(1, cursor: 5) })
        #expect(await finishesWhileMainActorIsBusy { _ = try await offset.loadPage(1, offset: 0, limit: 5) })
        let subclass = await MainActor.run { SortedModel(source: [3, 1, 2]) }
        let sorted = Locked<[Int]>([])
        #expect(
            await finishesWhileMainActorIsBusy {
                sorted.withLock { $0 = [] }; let value = try await subclass.load(()); sorted.withLock { $0 = value }
            })
        #expect(sorted.withLock { $0 } == [1, 2, 3])
    }
}

@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct LoadFunctionReleaseTests {
    @Test func aSubclassThatHandsItsLoadToSuperIsReleasedWhileItLoads() async throws {
        let gate = ControlledLoader<Void, [Int]>()
        var model: SortedModel? = SortedModel(gate: gate)
        model!.refresh()
        _ = try await gate.call(0)
        try await expectRelease(of: &model)
        #expect(gate.pendingCalls.isEmpty, "releasing the model cancelled its load")
    }

    @Test func aPagingModelIsReleasedWhileItsFirstPageLoads() async throws {
        let loader = ControlledLoader<PageRequest, Page<Item, Int>>()
        var first: PagingListViewModel<String, Item, Int>? = pager(loader)
        first!.refresh("q")
        _ = try await loader.call(0)
        try await expectRelease(of: &first)
        #expect(loader.pendingCalls.isEmpty)
    }

    @Test func aPagingModelIsReleasedWhileItsNextPageLoads() async throws {
        let loader = ControlledLoader<PageRequest, Page<Item, Int>>()
        var next: PagingListViewModel<String, Item, Int>? = pager(loader)
        do {  // NB: a RefreshHandle holds its model; this one goes at the end of the block.
            let opened = next!.refresh("q")
            loader.complete(try await loader.call(0), returning: page(0..<10, next: 10))
            await opened.settled()
        }
        next!.loadNextPage()
        let call = try await loader.call(1)
        #expect(call.input == PageRequest(input: "q", cursor: 10))
        try await expectRelease(of: &next)
        #expect(loader.pendingCalls.isEmpty, "releasing the model cancelled its next page")
    }

    @Test func aPagingModelMadeWithAFunctionPagesAndDeduplicates() async throws {
        let loader = ControlledLoader<PageRequest, Page<Item, Int>>()
        let model = pager(loader, deduplicate: true)
        let opened = model.refresh("q")
        loader.complete(try await loader.call(0), returning: page(0..<10, next: 8))
        await opened.settled()
        let next = model.loadNextPage()
        loader.complete(try await loader.call(1), returning: page(8..<12, next: nil))
        #expect(await next.settled() == .endReached)
        #expect(model.items.map { $0.id } == Array(0..<12), "the overlap is skipped")
    }

    @Test func anOffsetModelMadeWithAFunctionAsksForEachPageByOffset() async throws {
        let asked = Locked<[Int]>([])
        let model = OffsetPagingListViewModel<Void, Item>(pageSize: 4) { _, offset, limit in
            asked.withLock { $0.append(offset) }
            return OffsetPage(items: makeItems(offset..<min(offset + limit, 6)), totalCount: 6)
        }
        await model.refresh().settled()
        #expect(await model.loadNextPage().settled() == .endReached)
        #expect(model.items.map { $0.id } == Array(0..<6))
        #expect(asked.withLock { $0 } == [0, 4])
    }

    private func pager(
        _ loader: ControlledLoader<PageRequest, Page<Item, Int>>, deduplicate: Bool = false
    ) -> PagingListViewModel<String, Item, Int> {
        let byID: @Sendable (Item) -> any Hashable & Sendable = { $0.id }
        return PagingListViewModel(deduplicatingBy: deduplicate ? byID : nil) { input, cursor in
            try await loader.load(PageRequest(input: input, cursor: cursor))
        }
    }
}

/// A subclass that hands its load to `super.init` as a function: what it captures is checked by
/// the compiler, and the model is not held while the function runs.
private final class SortedModel: ContentLoadingViewModel<Void, [Int]> {
    init(source: [Int]) {
        super.init { _ in source.sorted() }
    }

    init(gate: ControlledLoader<Void, [Int]>) {
        super.init { _ in try await gate.load(()).sorted() }
    }
}
