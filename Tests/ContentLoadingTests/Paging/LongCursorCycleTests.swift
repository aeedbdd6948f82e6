import ContentLoading
import ContentLoadingSupport
import KitTestSupport
import Testing

/// A cursor cycle through more pages than the last ones held (a server whose cursors go round
/// after `μ` pages through `λ` pages) fails a page load with ``RepeatedCursorError`` too, within
/// the documented bound, so a loop that pages to the end ends. Pages dropped by a window and
/// loaded again, and a refresh's new list, are never taken for a cycle.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct LongCursorCycleTests {
    /// Pages of one item at cursors 1 … `lead + cycle`; the page at `lead + cycle` goes back
    /// to `lead + 1` (`cycle` 0: it ends the list). The first page (cursor `nil`) gives 1.
    static func pager(lead: Int, cycle: Int, pageWindow: Int? = nil) -> PagingListViewModel<Void, Item, Int> {
        PagingListViewModel(pageWindow: pageWindow) { _, cursor in
            let cursor = cursor ?? 0
            let next: Int? =
                switch cursor {
                case lead + cycle where cycle == 0: nil
                case lead + cycle: lead + 1
                default: cursor + 1
                }
            return Page(items: [Item(id: cursor)], previousCursor: cursor > 0 ? cursor - 1 : nil, nextCursor: next)
        }
    }

    /// Loads next pages while the next page is `idle`, at most `limit`; returns how many.
    static func pagedToTheEnd(_ model: PagingListViewModel<Void, Item, Int>, limit: Int) async -> Int {
        var loads = 0
        while model.nextPageState == .idle, loads < limit {
            await model.loadNextPage().settled()
            loads += 1
        }
        return loads
    }

    @Test func aCycleThroughMorePagesThanTheLastOnesHeldEndsALoopThatPagesToTheEnd() async throws {
        // NB: 2 pages, then 7 round and round: the page at 9 gives 3.
        let model = Self.pager(lead: 2, cycle: 7)
        await model.refresh().completed()
        let loads = await Self.pagedToTheEnd(model, limit: 100)
        guard case .failed(let error as RepeatedCursorError) = model.nextPageState else {
            Issue.record("paging went on: \(model.nextPageState) after \(loads) loads")
            return
        }
        #expect(error.isNextCursor)
        #expect(loads <= 2 * 7 + 7 + 1, "found within 2 · max(μ, λ) + λ pages of the chain")
        #expect(
            error.description
                == "the page loaded at cursor \(error.loadedAt ?? "") gives \(error.cursor) as its next cursor, "
                + "that of a page loaded before it: loading on would load the pages from there again")
        #expect(model.state.phase == .success, "the pages loaded stay")
    }

    @Test func cyclesOfEveryLengthAfterEveryLeadAreFoundWithinTheBound() async throws {
        for lead in [0, 1, 3, 10, 33] {
            for cycle in [1, 2, 5, 6, 9, 17, 40] {
                let model = Self.pager(lead: lead, cycle: cycle)
                await model.refresh().completed()
                let bound = 2 * max(lead, cycle) + cycle + 1
                let loads = await Self.pagedToTheEnd(model, limit: 10 * bound)
                guard case .failed(let error) = model.nextPageState, error is RepeatedCursorError else {
                    Issue.record("lead \(lead), cycle \(cycle): \(model.nextPageState) after \(loads) loads")
                    continue
                }
                #expect(loads <= bound, "lead \(lead), cycle \(cycle): \(loads) loads")
                if cycle <= 5 { #expect(loads == lead + cycle, "a cycle through the last pages held: at once") }
            }
        }
    }

    @Test func aLongListWithoutACyclePagesToItsEnd() async throws {
        let model = Self.pager(lead: 3_000, cycle: 0)
        await model.refresh().completed()
        let loads = await Self.pagedToTheEnd(model, limit: 4_000)
        #expect(model.nextPageState == .endReached)
        #expect(loads == 3_000)
        #expect(model.items.count == 3_001)
    }

    @Test func pagesAWindowDroppedAndLoadedAgainAreNotACycle() async throws {
        for (length, window) in [(5, 3), (9, 3), (16, 4), (40, 3), (63, 5), (100, 3)] {
            let model = Self.pager(lead: length, cycle: 0, pageWindow: window)
            for round in 0..<2 {
                await model.refresh().completed()
                // NB: forward to the end, back to the first page, forward again: each way the
                // window drops the pages behind and loads the pages ahead again.
                for pass in 0..<3 {
                    let forward = await Self.pagedToTheEnd(model, limit: 200)
                    let place = "\(length) pages, window \(window), round \(round), pass \(pass)"
                    #expect(model.nextPageState == .endReached, "\(place): \(forward) loads")
                    var backward = 0
                    while model.previousPageState == .idle, backward < 200 {
                        await model.loadPreviousPage().settled()
                        backward += 1
                    }
                    #expect(model.previousPageState == .endReached, "\(place): \(backward) loads back")
                    #expect(model.items.first?.id == 0, "\(place)")
                }
            }
        }
    }
}
