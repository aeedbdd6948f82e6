import ContentLoading
import Testing

/// A page that gives the cursor it was loaded with as the cursor to go on from fails that page
/// load with ``RepeatedCursorError``: a loop that pages to the end ends, and no request repeats
/// without end.
@MainActor
@Suite(.timeLimit(.minutes(1)))
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

    @Test func aNextCursorThatRepeatsFailsThePageAndEndsALoopThatPagesToTheEnd() async throws {
        let model = Self.pager(repeating: "b")
        await model.refresh().completed()
        var loads = 0
        while model.nextPageState == .idle, loads < 10 {
            await model.loadNextPage().settled()
            loads += 1
        }
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
}
