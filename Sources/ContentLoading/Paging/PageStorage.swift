import ContentLoadingSupport

/// The append-only buffer that the versions of a ``PagedList`` share: the items and a record
/// of each page.
///
/// Each version sees a prefix (its ``Extent``). Only the version that sees everything may
/// append in place; any other edit (a page prepended, pages dropped from the start, an item
/// replaced) copies. Elements of a prefix are never changed once written, so a version reads
/// its prefix safely while a newer one appends (the lock makes the buffer's own growth safe).
final class PageStorage<Element: Sendable, Cursor: Sendable>: Sendable {
    /// How much of the storage one version sees.
    struct Extent: Sendable, Equatable {
        var elements: Int
        var pages: Int
    }

    private struct Contents {
        var elements: [Element] = []
        var pages: [PageRecord<Cursor>] = []
        var keys: Set<DeduplicationKey<Element>.Value>?
    }

    private let contents: Locked<Contents>

    init(tracksKeys: Bool) {
        contents = Locked(Contents(keys: tracksKeys ? [] : nil))
    }

    private init(_ contents: Contents) {
        self.contents = Locked(contents)
    }

    func element(at index: Int) -> Element {
        contents.withLock { $0.elements[index] }
    }

    /// The record of page `index`.
    func page(at index: Int) -> PageRecord<Cursor> {
        contents.withLock { $0.pages[index] }
    }

    /// The records of the pages `range`.
    func pages(_ range: Range<Int>) -> [PageRecord<Cursor>] {
        contents.withLock { Array($0.pages[range]) }
    }

    /// Appends `items` as the page `record` describes when `extent` is the whole storage;
    /// `nil` (nothing done) otherwise. Items whose key is already stored are skipped.
    func appendInPlace(
        _ items: [Element], as record: PageRecord<Cursor>, after extent: Extent, key: DeduplicationKey<Element>?
    ) -> Extent? {
        // NB: the app's key function runs before the lock is taken: no call out under a lock.
        let itemKeys = key.map { key in items.map(key.value) }
        return contents.withLock { contents in
            guard contents.elements.count == extent.elements, contents.pages.count == extent.pages else { return nil }
            var added = items
            if let itemKeys, contents.keys != nil {
                added = zip(items, itemKeys).filter { contents.keys!.insert($0.1).inserted }.map(\.0)
            }
            contents.elements.append(contentsOf: added)
            contents.pages.append(record.counting(added.count))
            return Extent(elements: contents.elements.count, pages: contents.pages.count)
        }
    }

    /// A new storage holding the prefix `extent`, with its keys rebuilt.
    func copy(upTo extent: Extent, key: DeduplicationKey<Element>?) -> PageStorage {
        editing(extent, key: key) { _, _ in }.0
    }

    /// A new storage holding the prefix `extent` changed by `edit`.
    func editing(
        _ extent: Extent, key: DeduplicationKey<Element>?,
        _ edit: (inout [Element], inout [PageRecord<Cursor>]) -> Void
    ) -> (PageStorage, Extent) {
        var (elements, pages) = contents.withLock {
            (Array($0.elements.prefix(extent.elements)), Array($0.pages.prefix(extent.pages)))
        }
        edit(&elements, &pages)
        let keys = key.map { key in Set(elements.map(key.value)) }
        return (
            PageStorage(Contents(elements: elements, pages: pages, keys: keys)),
            Extent(elements: elements.count, pages: pages.count)
        )
    }
}

/// What a ``PagedList`` keeps of each page: how many items it added, how it was requested (to
/// request it again after a page window dropped it) and the cursors of its neighbours.
struct PageRecord<Cursor: Sendable>: Sendable {
    /// How many items the page added to the list (after deduplication).
    var count: Int
    /// The request that loaded it.
    var request: PageLocator<Cursor>
    /// The cursor of the page before it, from the source.
    var previousCursor: Cursor?
    /// The cursor of the page after it, from the source.
    var nextCursor: Cursor?

    /// The same record with `count` items.
    func counting(_ count: Int) -> PageRecord {
        var record = self
        record.count = count
        return record
    }
}

/// Where a page is: the initial page (cursor `nil`), or the page at a cursor.
enum PageLocator<Cursor: Sendable>: Sendable {
    case initial
    case cursor(Cursor)

    /// The cursor ``PagingListViewModel/loadPage(_:cursor:)`` gets for it.
    var cursor: Cursor? {
        if case .cursor(let cursor) = self { cursor } else { nil }
    }
}
