import ContentLoadingSupport
import Testing

@testable import ContentLoading

/// A paging model with a source hears every page the source stores as a change of its
/// elements (a store shares its own page writes too): each must cost that page, not the list.
@MainActor
@Suite struct PagingSourceChangeCostTests {
    /// Not `Equatable`: every change of it counts as a change.
    struct Note: Identifiable, Sendable {
        let id: Int
        var text = ""
    }

    /// A source of pages of 5 notes that shares each page it serves before serving it, as a
    /// store that writes the page does.
    final class SharingSource: Sendable {
        private let listeners = Locked<[@Sendable (PagingSourceChange<Note>) async -> Bool]>([])

        var source: PagingSource<Void, Note, Int> {
            PagingSource(
                storedInitialPage: { _ in nil },
                refreshedInitialPage: { _ in ServedPage(await self.served(at: 0)) },
                page: { _, cursor, _ in ServedPage(await self.served(at: cursor ?? 0)) },
                listen: { listener in self.listeners.withLock { $0.append(listener) } })
        }

        func share(_ saved: [Note]) async {
            for listener in listeners.withLock({ $0 }) {
                _ = await listener(PagingSourceChange(saved: saved, removed: nil))
            }
        }

        private func served(at start: Int) async -> Page<Note, Int> {
            let page = Page(items: (start..<start + 5).map { Note(id: $0) }, nextCursor: start + 5)
            await share(page.items)
            return page
        }
    }

    @Test func theModelsOwnPagesAndAnEditElsewhereReachItWithoutCopyingTheList() async {
        let pages = SharingSource()
        let model = PagingListViewModel(source: pages.source)
        await model.refresh().completed()
        let storage = model.items.storage
        for _ in 1..<10 { await model.loadNextPage().settled() }
        #expect(model.items.map(\.id) == Array(0..<50))
        #expect(model.items.storage === storage, "each page appended and its own change replaced in place")
        let before = model.items
        await pages.share([Note(id: 3, text: "edited")])
        #expect(model.items[3].text == "edited")
        #expect(before[3].text == "", "the version kept before the edit still reads its item")
        #expect(model.items.storage === storage)
    }
}
