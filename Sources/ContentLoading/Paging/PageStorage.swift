import ContentLoadingSupport

/// The append-only buffer that the versions of a ``PagedList`` share.
///
/// Each version sees a prefix (its ``Extent``). Only the version that sees everything may
/// append in place; any other edit copies. Elements of a prefix are never changed once
/// written, so a version reads its prefix safely while a newer one appends (the lock makes the
/// buffer's own growth safe).
final class PageStorage<Element: Sendable>: Sendable {
    /// How much of the storage one version sees.
    struct Extent: Sendable, Equatable {
        var elements: Int
        var pages: Int
    }

    private struct Contents {
        var elements: [Element] = []
        var pageSizes: [Int] = []
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

    /// Appends `items` when `extent` is the whole storage; `nil` (nothing done) otherwise.
    func appendInPlace(_ items: [Element], after extent: Extent, key: DeduplicationKey<Element>?) -> Extent? {
        // NB: the app's key function runs before the lock is taken: no call out under a lock.
        let itemKeys = key.map { key in items.map(key.value) }
        return contents.withLock { contents in
            guard contents.elements.count == extent.elements, contents.pageSizes.count == extent.pages else {
                return nil
            }
            var added = items
            if let itemKeys, contents.keys != nil {
                added = zip(items, itemKeys).filter { contents.keys!.insert($0.1).inserted }.map(\.0)
            }
            contents.elements.append(contentsOf: added)
            contents.pageSizes.append(added.count)
            return Extent(elements: contents.elements.count, pages: contents.pageSizes.count)
        }
    }

    /// A new storage holding the prefix `extent`, with its keys rebuilt.
    func copy(upTo extent: Extent, key: DeduplicationKey<Element>?) -> PageStorage {
        let (elements, pageSizes) = contents.withLock {
            (Array($0.elements.prefix(extent.elements)), Array($0.pageSizes.prefix(extent.pages)))
        }
        return PageStorage(
            Contents(elements: elements, pageSizes: pageSizes, keys: key.map { key in Set(elements.map(key.value)) }))
    }

    /// A new storage without the first `count` pages of `extent`.
    func dropping(pages count: Int, of extent: Extent, key: DeduplicationKey<Element>?) -> (PageStorage, Extent) {
        editing(extent, key: key) { elements, pageSizes in
            elements.removeFirst(pageSizes.prefix(count).reduce(0, +))
            pageSizes.removeFirst(count)
        }
    }

    /// A new storage holding the prefix `extent` changed by `edit`.
    func editing(
        _ extent: Extent, key: DeduplicationKey<Element>?, _ edit: (inout [Element], inout [Int]) -> Void
    ) -> (PageStorage, Extent) {
        var (elements, pageSizes) = contents.withLock {
            (Array($0.elements.prefix(extent.elements)), Array($0.pageSizes.prefix(extent.pages)))
        }
        edit(&elements, &pageSizes)
        let keys = key.map { key in Set(elements.map(key.value)) }
        return (
            PageStorage(Contents(elements: elements, pageSizes: pageSizes, keys: keys)),
            Extent(elements: elements.count, pages: pageSizes.count)
        )
    }
}
