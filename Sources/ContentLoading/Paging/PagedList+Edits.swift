import ContentLoadingSupport

/// The edits of a list's items in place (an element saved elsewhere, ``PagingListViewModel/replaceItem(_:)``).
///
/// A replacement is an edit in place of the storage the versions share when this version sees
/// all of it, so it costs what it replaces, not the list; a removal copies.
extension PagedList {
    /// Replaces the item at `index`.
    mutating func replace(at index: Int, with element: Element, key: DeduplicationKey<Element>?) {
        replace([(index, element)], key: key)
    }

    /// Replaces each item whose id one of `elements` has (unless equal), in one edit.
    ///
    /// - Returns: Whether an item changed.
    mutating func replace(_ elements: [Element], key: DeduplicationKey<Element>?) -> Bool
    where Element: Identifiable {
        let byID = Dictionary(elements.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        let held =
            indexedPositions(of: byID, key: key)
            ?? indices.compactMap { index in byID[self[index].id].map { (index, $0) } }
        let changes = held.filter { !isSame(self[$0.index], $0.element) }
        guard !changes.isEmpty else { return false }
        replace(changes, key: key)
        return true
    }

    /// The position of the item with `id`: through the list's keys when they are the ids, by a
    /// search otherwise.
    func firstIndex(ofID id: Element.ID, key: DeduplicationKey<Element>?) -> Int? where Element: Identifiable {
        switch keyedPosition(ofID: id, key: key) {
        case .at(let position): position
        case .notHeld: nil
        case nil: firstIndex { $0.id == id }
        }
    }

    /// Removes the item at `index`, keeping the page counts in step.
    mutating func remove(at index: Int, key: DeduplicationKey<Element>?) {
        (storage, extent) = storage.editing(extent, key: key) { elements, pages in
            elements.remove(at: index)
            var start = 0
            for page in pages.indices {
                if index < start + pages[page].count {
                    pages[page].count -= 1
                    return
                }
                start += pages[page].count
            }
        }
    }

    /// Removes the items `shouldRemove` picks (given each item and its page's
    /// ``PageRecord/storedAt``), keeping the page counts in step.
    ///
    /// - Returns: Whether it removed any.
    mutating func removeAll(
        where shouldRemove: (Element, _ pageStoredAt: UInt64?) -> Bool, key: DeduplicationKey<Element>?
    ) -> Bool {
        var start = 0
        let picks = storage.pages(0..<extent.pages).contains { record in
            defer { start += record.count }
            return self[start..<start + record.count].contains { shouldRemove($0, record.storedAt) }
        }
        guard picks else { return false }
        (storage, extent) = storage.editing(extent, key: key) { elements, pages in
            var kept: [Element] = []
            kept.reserveCapacity(elements.count)
            var start = 0
            for page in pages.indices {
                let end = start + pages[page].count
                let storedAt = pages[page].storedAt
                let left = elements[start..<end].filter { !shouldRemove($0, storedAt) }
                pages[page].count = left.count
                kept += left
                start = end
            }
            elements = kept
        }
        return true
    }

    /// Where the list holds the ids of `byID`, found through its keys; `nil` when the keys are
    /// not the ids, or a position found holds another item (a search finds them then).
    private func indexedPositions(of byID: [Element.ID: Element], key: DeduplicationKey<Element>?)
        -> [(index: Int, element: Element)]? where Element: Identifiable
    {
        var held: [(index: Int, element: Element)] = []
        for (id, element) in byID {
            switch keyedPosition(ofID: id, key: key) {
            case .at(let position): held.append((position, element))
            case .notHeld: continue
            case nil: return nil
            }
        }
        return held
    }

    /// Where the item with `id` is, found through the list's keys; `nil` when they cannot
    /// tell (the keys are not the ids, or the position found holds another item).
    private func keyedPosition(ofID id: Element.ID, key: DeduplicationKey<Element>?) -> KeyedPosition?
    where Element: Identifiable {
        guard let key, key.isID, storage.tracksKeys else { return nil }
        guard let position = storage.position(of: key.value(ofID: id)) else { return .notHeld }
        return position < count && self[position].id == id ? .at(position) : nil
    }

    /// Replaces the items at the positions `changes` gives: in place when this version sees
    /// the whole storage, in a copy otherwise.
    private mutating func replace(_ changes: [(index: Int, element: Element)], key: DeduplicationKey<Element>?) {
        if let edited = storage.replaceInPlace(changes, after: extent, key: key) {
            extent = edited
            return
        }
        (storage, extent) = storage.editing(extent, key: key) { elements, _ in
            for change in changes { elements[change.index] = change.element }
        }
    }
}

/// What a list's keys say of an id: held at a position, or not held.
private enum KeyedPosition {
    case at(Int)
    case notHeld
}
