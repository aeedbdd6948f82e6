import ContentLoading
import KitTestSupport
import Testing

/// A page that gives the cursor it was loaded with as the cursor to go on from fails that page
/// load with ``RepeatedCursorError``: a loop that pages to the end ends, and no request repeats
/// without end.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct RepeatedCursorTests {
    struct Item: Identifiable, Sendable, Equatable { let id: Int }

    /// Pages of two items; the page at `repeating` gives its own cursor again at both ends.
    static func pager(repeating: String) -> PagingListViewModel<Void, Item, String> {
        PagingListViewModel(deduplicatingBy: { $0.id }) { _, cursor in
            switch cursor {
            case nil: Page(items: [Item(id: 10), Item(id: 11)], previousCursor: "a", nextCursor: "b")
            case "a":
                Page(items: [Item(id: 0), Item(id: 1)], previousCursor: repeating == "a" ? "a" : nil, nextCursor: nil)
            default: Page(items: [Item(id: 20), Item(id: 21)], nextCursor: cursor == repeating ? cursor : nil)
            }
        }
    }

    /// Refreshes `model`, then loads next pages while its next page is `idle` (at most 10);
    /// returns how many it loaded.
    static func refreshedAndPagedToTheEnd(_ model: PagingListViewModel<Void, Item, String>) async -> Int {
        await model.refresh().completed()
        var loads = 0
        while model.nextPageState == .idle, loads < 10 {
            await model.loadNextPage().settled()
            loads += 1
        }
        return loads
    }

    @Test func aNextCursorThatRepeatsFailsThePageAndEndsALoopThatPagesToTheEnd() async throws {
        let model = Self.pager(repeating: "b")
        let loads = await Self.refreshedAndPagedToTheEnd(model)
        #expect(loads == 1)
        #expect(model.nextPageState == .failed(RepeatedCursorError(cursor: "b", isNextCursor: true)))
        #expect(model.items.map(\.id) == [10, 11], "nothing of the page added; the first page kept")
        #expect(model.state.phase == .success)
        #expect(
            "\(model.nextPageState)"
                == "failed(the page loaded at cursor b gives b as its next cursor: loading on would load it again)")

        await model.retryNextPage().settled()
        #expect(model.nextPageState == .failed(RepeatedCursorError(cursor: "b", isNextCursor: true)))
    }

    @Test func aPreviousCursorThatRepeatsFailsThePreviousPage() async throws {
        let model = Self.pager(repeating: "a")
        await model.refresh().completed()
        await model.loadPreviousPage().settled()
        #expect(model.previousPageState == .failed(RepeatedCursorError(cursor: "a", isNextCursor: false)))
        #expect(model.items.map(\.id) == [10, 11])
        #expect(model.nextPageState == .idle, "the other end is not touched")
    }

    @Test func cursorsThatMoveOnPageToTheEnd() async throws {
        let model = Self.pager(repeating: "")
        await model.refresh().completed()
        await model.loadNextPage().settled()
        await model.loadPreviousPage().settled()
        #expect(model.items.map(\.id) == [0, 1, 10, 11, 20, 21])
        #expect(model.nextPageState == .endReached)
        #expect(model.previousPageState == .endReached)
    }

    @Test func aCursorThatLeadsBackToAPageTheListHoldsFailsThePage() async throws {
        // NB: "b" goes on to "c", and "c" back to "b".
        let model = PagingListViewModel<Void, Item, String>(deduplicatingBy: { $0.id }) { _, cursor in
            switch cursor {
            case nil: Page(items: [Item(id: 0)], nextCursor: "b")
            case "b": Page(items: [Item(id: 1)], nextCursor: "c")
            default: Page(items: [Item(id: 2)], previousCursor: "c", nextCursor: "b")
            }
        }
        let loads = await Self.refreshedAndPagedToTheEnd(model)
        #expect(loads == 2)
        let repeated = RepeatedCursorError(cursor: "b", loadedAt: "c", isNextCursor: true)
        #expect(model.nextPageState == .failed(repeated))
        #expect(
            repeated.description
                == "the page loaded at cursor c gives b as its next cursor, that of a page loaded before it: "
                + "loading on would load the pages from there again")
        #expect(model.items.map(\.id) == [0, 1], "nothing of the page added")
    }

    @Test func aPreviousCursorThatLeadsBackToAPageTheListHoldsFailsThePreviousPage() async throws {
        // NB: opened in the middle: the initial page goes back to "a", "a" back to "b", "b" to "a".
        let model = PagingListViewModel<Void, Item, String> { _, cursor in
            switch cursor {
            case nil: Page(items: [Item(id: 10)], previousCursor: "a", nextCursor: nil)
            case "a": Page(items: [Item(id: 9)], previousCursor: "b", nextCursor: nil)
            default: Page(items: [Item(id: 8)], previousCursor: "a", nextCursor: nil)
            }
        }
        await model.refresh().completed()
        await model.loadPreviousPage().settled()
        await model.loadPreviousPage().settled()
        let repeated = RepeatedCursorError(cursor: "a", loadedAt: "b", isNextCursor: false)
        #expect(model.previousPageState == .failed(repeated))
        #expect(model.items.map(\.id) == [9, 10])
    }
}
