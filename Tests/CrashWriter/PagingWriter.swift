import ContentLoading
import ContentLoadingRepository
import Foundation

/// One element of the paged list `pages` mode writes.
struct PagedRow: Identifiable, Codable, Sendable {
    let id: Int
    let label: String
}

/// Pages through the list "feed" kept in the element store at `path`, again and again, each
/// round against a catalog whose contacts and cursors moved since the last (so a refresh drops
/// the stored pages and the next pages are written again), until the test kills the process.
@MainActor
func pageForever(path: String) async throws -> Never {
    let store = ElementStore<PagedRow>(disk: try DiskCache(.file(path: path)))
    FileHandle.standardOutput.write(Data("paging\n".utf8))
    for round in 1... {
        let feed = PagingListViewModel<Void, PagedRow, String>(
            source: .persisted(in: store, key: "feed") { cursor in catalogPage(round: round, after: cursor) })
        await feed.refresh().completed()
        while feed.nextPageState == .idle { await feed.loadNextPage().settled() }
        if case .failed(let error) = feed.nextPageState { throw error }
        if let error = feed.state.error { throw error }
    }
    fatalError("unreachable")
}

/// The page after the row with id `cursor` (`nil`: the first page) of round `round`'s catalog:
/// 40 rows whose ids start at `round % 7`, five a page, keyset cursors.
private func catalogPage(round: Int, after cursor: String?) -> Page<PagedRow, String> {
    let ids = Array((round % 7)..<(round % 7 + 40))
    let start = cursor.flatMap(Int.init).flatMap { ids.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
    let page = ids[start..<min(start + 5, ids.count)].map { PagedRow(id: $0, label: "round \(round)") }
    return Page(items: page, nextCursor: start + 5 < ids.count ? page.last.map { "\($0.id)" } : nil)
}
