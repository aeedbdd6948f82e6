import ContentLoading

/// Scenario 3: paging through `pages` pages of 50 items with an instant loader.
@MainActor
public enum PagingScenario {
    struct Row: Sendable, Identifiable {
        let id: Int
        let value: Int
    }

    final class Pager: PagingListViewModel<Void, Row, Int> {
        let pages: Int
        init(pages: Int) {
            self.pages = pages
            super.init()
        }
        override func loadPage(_ input: Void, cursor: Int?) async throws -> Page<Row, Int> {
            let page = cursor ?? 0
            let rows = (0..<50).map { Row(id: page * 50 + $0, value: $0) }
            return Page(items: rows, nextCursor: page + 1 < pages ? page + 1 : nil)
        }
    }

    /// Loads every page; returns the number of items loaded.
    public static func run(pages: Int) async -> Int {
        let pager = Pager(pages: pages)
        await pager.refresh().settled()
        for await state in pager.nextPageStateUpdates {
            switch state {
            case .idle: pager.loadNextPage()
            case .endReached: return pager.itemCount
            case .loading, .failed: continue
            }
        }
        return pager.itemCount
    }
}
