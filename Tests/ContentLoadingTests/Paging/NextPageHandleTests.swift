import ContentLoading
import ContentLoadingTesting
import KitTestSupport
import Testing

/// `loadNextPage()` and `retryNextPage()` return a handle that settles with the page.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct NextPageHandleTests {
    private func pagerWithFirstPage(honorsCancellation: Bool = true) async throws -> ControlledPager {
        let loader = ControlledLoader<PageRequest, Page<Item, Int>>(honorsCancellation: honorsCancellation)
        let pager = ControlledPager(loader: loader)
        let first = pager.refresh("q")
        loader.complete(try await loader.call(0), returning: page(0..<10, next: 10))
        await first.settled()
        return pager
    }

    @Test func aHandleSettlesWhenThePageIsAppendedOrFails() async throws {
        let pager = try await pagerWithFirstPage()
        let next = pager.loadNextPage()
        #expect(!next.isSettled)
        pager.loader.complete(try await pager.loader.call(1), returning: page(10..<20, next: 20))
        #expect(await next.settled() == .idle)
        #expect(pager.itemCount == 20, "settled after the append")

        let failing = pager.loadNextPage()
        pager.loader.complete(try await pager.loader.call(2), throwing: PageFailure(offset: 20))
        #expect(await failing.settled() == .failed(PageFailure(offset: 20)))
        let retry = pager.retryNextPage()
        pager.loader.complete(try await pager.loader.call(3), returning: page(20..<25, next: nil))
        #expect(await retry.settled() == .endReached)
        #expect(pager.itemCount == 25)
    }

    @Test func aCallWhileThePageLoadsAwaitsThatPage() async throws {
        let pager = try await pagerWithFirstPage()
        let loading = pager.loadNextPage()
        let joined = pager.loadNextPage()  // a page is already loading
        #expect(!joined.isSettled)
        #expect(!pager.loadMoreIfNeeded(currentIndex: 9).isSettled, "near the end: the same page")
        pager.loader.complete(try await pager.loader.call(1), returning: page(10..<12, next: nil))
        #expect(await joined.settled() == .endReached)
        #expect(pager.itemCount == 12, "settled after the append")
        #expect(loading.isSettled)
        #expect(pager.loader.calls.count == 2, "one request for the page")
    }

    @Test func aCallWhileThePageTheModelStartedLoadsAwaitsThatPage() async throws {
        let loader = ControlledLoader<PageRequest, Page<Item, Int>>()
        let pager = ControlledPager(loader: loader)
        let first = pager.refresh("q")
        // NB: an empty first page with a cursor onward: the model loads the next page itself.
        loader.complete(try await loader.call(0), returning: page(0..<0, next: 10))
        await first.settled()
        let call = try await loader.call(1)
        let joined = pager.loadNextPage()
        #expect(!joined.isSettled)
        loader.complete(call, returning: page(10..<15, next: nil))
        #expect(await joined.settled() == .endReached)
        #expect(pager.itemCount == 5)
    }

    @Test func aCallThatStartsNothingIsSettledAtOnce() async throws {
        let pager = try await pagerWithFirstPage()
        #expect(pager.retryNextPage().isSettled, "nothing failed")
        #expect(pager.loadMoreIfNeeded(currentIndex: 0).isSettled, "far from the end")
        let refresh = pager.refresh("q")
        let duringRefresh = pager.loadNextPage()
        #expect(duringRefresh.isSettled, "a refresh is loading")
        #expect(await duringRefresh.settled() == .idle)
        pager.loader.complete(try await pager.loader.call(1), returning: page(0..<10, next: nil))
        await refresh.settled()
        let atTheEnd = pager.loadNextPage()
        #expect(atTheEnd.isSettled)
        #expect(await atTheEnd.settled() == .endReached)
    }

    @Test func cancellingThePageSettlesItsHandleEvenIfTheLoaderIgnoresCancellation() async throws {
        let pager = try await pagerWithFirstPage(honorsCancellation: false)
        let next = pager.loadNextPage()
        let call = try await pager.loader.call(1)
        pager.cancelNextPage()
        #expect(await next.settled() == .idle)
        pager.loader.complete(call, returning: page(10..<20, next: 20))  // late: not appended
    }

    @Test func aCancelledWaiterReturnsAtOnceAndThePageGoesOn() async throws {
        let pager = try await pagerWithFirstPage()
        let next = pager.loadNextPage()
        let waiter = Task { await next.settled() }
        waiter.cancel()
        #expect(await waiter.value == .loading)
        pager.loader.complete(try await pager.loader.call(1), returning: page(10..<20, next: 20))
        #expect(await next.settled() == .idle)
        #expect(pager.itemCount == 20)
    }
}
