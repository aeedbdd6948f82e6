import ContentLoadingSupport

/// The append-only buffer that the versions of a ``PagedList`` share: the items, a record of
/// each page, and the items replaced in place.
///
/// Each version sees a prefix (its ``Extent``) as of a number of edits. Only the version that
/// sees everything may change the storage in place: append a page, or replace items (each
/// replacement is kept beside the item it replaces, with the edit that made it, so a version
/// that sees fewer edits still reads the item it had). Any other edit (a page prepended, pages
/// dropped from the start, an item removed) copies. Elements of a prefix are never changed
/// once written, so a version reads its prefix safely while a newer one appends (the lock
/// makes the buffer's own growth safe).
final class PageStorage<Element: Sendable, Cursor: Sendable>: Sendable {
    /// How much of the storage one version sees.
    struct Extent: Sendable, Equatable {
        var elements: Int
        var pages: Int
        /// How many edits in place this version sees.
        var edits = 0
    }

    /// An item replaced in place, and the edit that replaced it.
    private struct Replacement {
        let edit: Int
        let element: Element
    }

    private struct Contents {
        var elements: [Element] = []
        var pages: [PageRecord<Cursor>] = []
        /// The position of each key, when the list de-duplicates (the first item with it).
        var positions: [DeduplicationKey<Element>.Value: Int]?
        /// The replacements of each position replaced in place, oldest first.
        var replaced: [Int: [Replacement]] = [:]
        /// How many edits in place were made.
        var edits = 0
        /// How many replacements `replaced` keeps.
        var replacements = 0

        /// Everything, as the newest version sees it.
        var extent: Extent { Extent(elements: elements.count, pages: pages.count, edits: edits) }

        func sees(_ extent: Extent) -> Bool { self.extent == extent }

        func element(at index: Int, seeing edits: Int) -> Element {
            if !replaced.isEmpty, let history = replaced[index],
                let replacement = history.last(where: { $0.edit <= edits })
            {
                return replacement.element
            }
            return elements[index]
        }
    }

    private let contents: Locked<Contents>

    init(tracksKeys: Bool) {
        contents = Locked(Contents(positions: tracksKeys ? [:] : nil))
    }

    private init(_ contents: Contents) {
        self.contents = Locked(contents)
    }

    /// Whether the storage knows the position of each key.
    var tracksKeys: Bool { contents.withLock { $0.positions != nil } }

    /// The item at `index`, as a version that sees `edits` edits reads it.
    func element(at index: Int, seeing edits: Int) -> Element {
        contents.withLock { $0.element(at: index, seeing: edits) }
    }

    /// The position of the first item stored with `key`, when the storage tracks keys and holds
    /// one. It may lie beyond a version's prefix, and a version that sees fewer edits may hold
    /// another item there: the caller checks.
    func position(of key: DeduplicationKey<Element>.Value) -> Int? {
        contents.withLock { $0.positions?[key] }
    }

    /// The record of page `index`.
    func page(at index: Int) -> PageRecord<Cursor> {
        contents.withLock { $0.pages[index] }
    }

    /// The record of the page that holds item `index` of the version that sees `extent`,
    /// counted from the nearer end (a page just loaded, at either end, is found at once).
    func page(holding index: Int, in extent: Extent) -> PageRecord<Cursor>? {
        guard index >= 0, index < extent.elements else { return nil }
        return contents.withLock { contents in
            let pages = contents.pages.prefix(extent.pages)
            if index < extent.elements / 2 {
                var end = 0
                return pages.first { record in
                    end += record.count
                    return index < end
                }
            }
            var start = extent.elements
            return pages.last { record in
                start -= record.count
                return index >= start
            }
        }
    }

    /// The records of the pages `range`.
    func pages(_ range: Range<Int>) -> [PageRecord<Cursor>] {
        contents.withLock { Array($0.pages[range]) }
    }

    /// Appends `items` as the page `record` describes when `extent` sees the whole storage;
    /// `nil` (nothing done) otherwise. Items whose key is already stored are skipped.
    func appendInPlace(
        _ items: [Element], as record: PageRecord<Cursor>, after extent: Extent, key: DeduplicationKey<Element>?
    ) -> Extent? {
        // NB: the app's key function runs before the lock is taken: no call out under a lock.
        let itemKeys = key.map { key in items.map(key.value) }
        return contents.withLock { contents in
            guard contents.sees(extent) else { return nil }
            var added = items
            if let itemKeys, contents.positions != nil {
                added = []
                for (item, key) in zip(items, itemKeys) where contents.positions![key] == nil {
                    contents.positions![key] = contents.elements.count + added.count
                    added.append(item)
                }
            }
            contents.elements.append(contentsOf: added)
            contents.pages.append(record.counting(added.count))
            return contents.extent
        }
    }

    /// Replaces the items at the positions `changes` gives when `extent` sees the whole storage
    /// and the replacements kept stay fewer than the items (past that a copy folds them in);
    /// `nil` (nothing done) otherwise.
    func replaceInPlace(
        _ changes: [(index: Int, element: Element)], after extent: Extent, key: DeduplicationKey<Element>?
    ) -> Extent? {
        // NB: the keys (the app's function) are worked out before the lock is taken. An id key
        // does not change: a replacement has the id of the item it replaces.
        let keys = key.flatMap { key in
            key.isID
                ? nil
                : changes.map {
                    (old: key.value(of: element(at: $0.index, seeing: extent.edits)), new: key.value(of: $0.element))
                }
        }
        return contents.withLock { contents in
            guard contents.sees(extent), contents.replacements + changes.count <= max(1_024, contents.elements.count)
            else { return nil }
            contents.edits += 1
            contents.replacements += changes.count
            for (offset, change) in changes.enumerated() {
                contents.replaced[change.index, default: []].append(
                    Replacement(edit: contents.edits, element: change.element))
                guard let key = keys?[offset], key.old != key.new, contents.positions != nil else { continue }
                if contents.positions![key.old] == change.index { contents.positions![key.old] = nil }
                if contents.positions![key.new] == nil { contents.positions![key.new] = change.index }
            }
            return contents.extent
        }
    }

    /// A new storage holding the prefix `extent` (its replacements folded in), with its keys
    /// rebuilt, and the copy's extent (which counts no edit: the copy has made none).
    func copy(upTo extent: Extent, key: DeduplicationKey<Element>?) -> (PageStorage, Extent) {
        editing(extent, key: key) { _, _ in }
    }

    /// A new storage holding the prefix `extent` (its replacements folded in) changed by `edit`.
    func editing(
        _ extent: Extent, key: DeduplicationKey<Element>?,
        _ edit: (inout [Element], inout [PageRecord<Cursor>]) -> Void
    ) -> (PageStorage, Extent) {
        var (elements, pages) = contents.withLock { contents in
            var elements = Array(contents.elements.prefix(extent.elements))
            for position in contents.replaced.keys where position < extent.elements {
                elements[position] = contents.element(at: position, seeing: extent.edits)
            }
            return (elements, Array(contents.pages.prefix(extent.pages)))
        }
        edit(&elements, &pages)
        let positions = key.map { key in
            Dictionary(zip(elements.map(key.value), elements.indices), uniquingKeysWith: { first, _ in first })
        }
        return (
            PageStorage(Contents(elements: elements, pages: pages, positions: positions)),
            Extent(elements: elements.count, pages: pages.count)
        )
    }
}
