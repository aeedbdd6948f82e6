import ContentLoading
import ContentLoadingSupport

/// A feed of items in id order, paged by keyset (the next page is the items after the last
/// id), which a test edits between refreshes; it counts the pages it serves.
final class KeysetFeed: Sendable {
    let pageSize: Int
    private let ids: Locked<[Int]>
    let requests = Locked<[Int?]>([])
    /// Cursors whose page fails once.
    let failing = Locked<Set<Int>>([])

    init(ids: [Int], pageSize: Int) {
        self.ids = Locked(ids.sorted())
        self.pageSize = pageSize
    }

    var all: [Int] { ids.withLock { $0 } }

    func insert(_ id: Int) { ids.withLock { $0.insert(id, at: $0.firstIndex { $0 > id } ?? $0.endIndex) } }

    func remove(_ id: Int) { ids.withLock { $0.removeAll { $0 == id } } }

    /// The page after `cursor` (from the start when `nil`).
    func page(after cursor: Int?) throws -> Page<Item, Int> {
        requests.withLock { $0.append(cursor) }
        if let cursor, failing.withLock({ $0.remove(cursor) }) != nil { throw PageFailure(offset: cursor) }
        let all = self.all
        let start = cursor.map { cursor in all.firstIndex { $0 > cursor } ?? all.endIndex } ?? 0
        let ids = Array(all[start..<min(start + pageSize, all.count)])
        let hasMore = start + pageSize < all.count
        return Page(items: ids.map { Item(id: $0) }, nextCursor: hasMore ? ids.last : nil)
    }

    /// A model paging this feed, telling items apart by id.
    @MainActor func model(pageWindow: Int? = nil) -> PagingListViewModel<Void, Item, Int> {
        PagingListViewModel(pageWindow: pageWindow, deduplicatingBy: { $0.id }) { [self] _, cursor in
            try page(after: cursor)
        }
    }
}
