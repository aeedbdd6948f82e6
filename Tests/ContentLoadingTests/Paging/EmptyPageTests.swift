import ContentLoading
import ContentLoadingTesting
import KitTestSupport
import Testing

/// A page with no item but a cursor onward (a server that filters its pages, or every item of
/// the pages shown removed) is not the end of the list: no row appears to ask for the next
/// page, so the model loads on by itself until an item shows or the end is reached. (It used
/// to settle in `empty`, at the end, with the pages beyond out of reach.)
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct EmptyPageTests {
    let loader = ControlledLoader<PageRequest, Page<Item, Int>>()

    @Test func emptyPagesWithACursorOnwardAreLoadedThroughUntilAnItemShows() async throws {
        let model = ControlledPager(loader: loader)
        let pageStates = StreamRecorder(model.nextPageStateUpdates)
        let refresh = model.refresh("q")
        loader.complete(try await loader.call(0), returning: page(0..<0, next: 10))
        #expect(await refresh.completed().phase == .success, "not empty: there is more")

        let second = try await loader.call(1)
        #expect(second.input.cursor == 10, "asked for by the model itself")
        loader.complete(second, returning: page(10..<10, next: 20))
        let third = try await loader.call(2)
        #expect(third.input.cursor == 20)
        loader.complete(third, returning: page(20..<22, next: 30))
        while try await pageStates.next() != .idle || model.items.isEmpty {}
        #expect(model.items.map(\.id) == [20, 21])
        #expect(model.nextPageState == .idle, "an item shows: the rows ask for more")
        #expect(loader.calls.count == 3)
    }

    /// A server that answers empty pages with new cursors for ever is asked for 20 pages, then
    /// the app decides.
    @Test func emptyPagesAreLoadedByTheModelForTwentyPagesAtMost() async throws {
        let model = ControlledPager(loader: loader)
        let pageStates = StreamRecorder(model.nextPageStateUpdates)
        let refresh = model.refresh("q")
        loader.complete(try await loader.call(0), returning: page(0..<0, next: 10))
        _ = await refresh.completed()
        for index in 1..<20 {
            let call = try await loader.call(index)
            #expect(call.input.cursor == index * 10, "asked for by the model itself")
            loader.complete(call, returning: page(0..<0, next: (index + 1) * 10))
        }
        while model.content?.pagesLoaded != 20 || model.nextPageState != .idle { _ = try await pageStates.next() }
        #expect(loader.calls.count == 20, "20 pages with no item, then no more by itself")
        #expect(model.state.phase == .success && model.items.isEmpty)
        let next = model.loadNextPage()
        loader.complete(try await loader.call(20), returning: page(200..<201, next: nil))
        #expect(await next.settled() == .endReached)
        #expect(model.items.map(\.id) == [200])
    }

    /// An edit is not a load: a list the app emptied waits for `loadNextPage()`.
    @Test func aListWhoseItemsTheAppRemovedDoesNotLoadOnByItself() async throws {
        let model = ControlledPager(loader: loader)
        let refresh = model.refresh("q")
        loader.complete(try await loader.call(0), returning: page(0..<1, next: 10))
        _ = await refresh.completed()
        #expect(model.removeItem(id: 0))
        #expect(model.items.isEmpty)
        #expect(model.state.phase == .success, "not empty: there is more")
        #expect(model.nextPageState == .idle, "not loading")
        let next = model.loadNextPage()
        loader.complete(try await loader.call(1), returning: page(10..<12, next: nil))
        #expect(await next.settled() == .endReached)
        #expect(model.items.map(\.id) == [10, 11])
    }

    @Test func anEmptyPageAtTheEndIsEmpty() async throws {
        let model = ControlledPager(loader: loader)
        let refresh = model.refresh("q")
        loader.complete(try await loader.call(0), returning: page(0..<0, next: nil))
        #expect(await refresh.completed().phase == .empty)
        #expect(model.nextPageState == .endReached)
        #expect(loader.calls.count == 1)
    }

    @Test func aFailedPageAfterAnEmptyOneIsNotRetriedByItself() async throws {
        struct Down: Error {}
        let model = ControlledPager(loader: loader)
        let pageStates = StreamRecorder(model.nextPageStateUpdates)
        let refresh = model.refresh("q")
        loader.complete(try await loader.call(0), returning: page(0..<0, next: 10))
        _ = await refresh.completed()
        loader.complete(try await loader.call(1), throwing: Down())
        while true {
            if case .failed = try await pageStates.next() { break }
        }
        guard case .failed = model.nextPageState else {
            Issue.record("the failed page was started again by itself: \(model.nextPageState)")
            return
        }
        #expect(model.retryNextPage().isSettled == false, "the app retries it")
        loader.complete(try await loader.call(2), returning: page(10..<12, next: nil))
        while try await pageStates.next() != .endReached {}
        #expect(model.items.map(\.id) == [10, 11])
    }
}
