import ContentLoadingSupport
import Foundation

/// Elements saved, or one removed (or all), as every repository over an ``ElementStore`` hears
/// it: a save through the store, or the elements a repository's write stored (a fetched list, a
/// fetched detail), which every other key holding them gets.
struct ElementChange<Element: Identifiable & Sendable>: Sendable where Element.ID: Sendable {
    /// The saved elements.
    var saved: [Element] = []
    /// The removed element's id.
    var removed: Element.ID? = nil
    /// Whether every element of the type was removed (a details repository's `removeAll()`):
    /// every list leaves out all it holds; a detail keeps the element a newer change brought.
    var removesAll = false
    /// The file's version of the write.
    let version: UInt64
    let writtenAt: Date
    /// Where the readers are told the change comes from: ``CacheOrigin/local`` for a save,
    /// ``CacheOrigin/pending`` for an outbox's mutation not yet confirmed.
    var origin: CacheOrigin = .local
    /// Prefixes of keys every repository over the store invalidates (a confirmed mutation's
    /// ``Mutation/invalidatedKeyPrefixes``).
    var invalidatedKeyPrefixes: [String] = []
    /// The tier and key whose write it was (they have it already); `nil` for the store's own.
    var source: (tier: ObjectIdentifier, key: any Hashable & Sendable)? = nil
    /// The key of the paged list whose stored page the write placed the saved elements in;
    /// `nil` for any other write.
    var placedIn: String? = nil
    /// The store's versions of the changes being shared, set when the store shares it.
    var versions: ElementVersions<Element.ID>? = nil

    /// The ids it changes.
    var ids: [Element.ID] { saved.map(\.id) + (removed.map { [$0] } ?? []) }

    /// The change as a list hears it: without the saved elements a newer change brought (or is
    /// bringing) to its receivers, so one that hears it late keeps the newer. A removal stays
    /// whatever came after it: it took the element out of every list in the file, and no save
    /// puts one back (only a write of the list does, which the receiver checks). Call it where
    /// the change is applied, under the receiver's lock.
    func current() -> ElementChange {
        guard versions != nil else { return self }
        var current = self
        current.saved.removeAll { isSuperseded($0.id) }
        return current
    }

    /// Whether a newer change of element `id` came (or is coming) to the receivers.
    func isSuperseded(_ id: Element.ID) -> Bool {
        versions?.isSuperseded(id, at: version) ?? false
    }

    /// The elements page writes newer than this change placed in stored pages (or are
    /// placing), by the key of the list.
    func placedAfter() -> [String: Set<Element.ID>] {
        versions?.placed(after: version) ?? [:]
    }

    /// Whether it changes nothing.
    var isEmpty: Bool { saved.isEmpty && removed == nil && !removesAll }

    /// Whether it is a write of the tier `origin`.
    func isFrom(_ origin: WriteOrigin) -> Bool { source?.tier == ObjectIdentifier(origin) }

    /// Whether it is the write of `key` in the tier `origin`.
    func isSource<Key: Hashable>(_ origin: WriteOrigin, key: Key) -> Bool {
        guard let source, source.tier == ObjectIdentifier(origin) else { return false }
        return source.key as? Key == key
    }

    /// Applies the saves of the change, or its removal of one element, to `list` at `positions`
    /// (where the list held each id when it was last written or read: `ElementHolders`),
    /// without a search of the list; with a removal of every element, a position that is not
    /// the id's any more, or an id held twice, it searches (``apply(to:)``).
    ///
    /// - Returns: Whether `list` changed.
    func apply(to list: inout [Element], at positions: [Element.ID: Int]) -> Bool {
        // NB: one element removed where the list holds it once: taken out there, without
        // comparing every element's id.
        if let removed, !removesAll, saved.isEmpty, let position = positions[removed], list.indices.contains(position),
            list[position].id == removed
        {
            list.remove(at: position)
            return true
        }
        guard removed == nil, !removesAll else { return apply(to: &list) }
        var changed = false
        for element in saved {
            guard let position = positions[element.id] else { continue }
            guard list.indices.contains(position), list[position].id == element.id else { return apply(to: &list) }
            guard !isSame(list[position], element) else { continue }
            list[position] = element
            changed = true
        }
        return changed
    }

    /// Applies the change to `list`: each saved element in place of every element with its
    /// id (unless equal), the removed one left out, or every one (order kept).
    ///
    /// - Returns: Whether `list` changed.
    func apply(to list: inout [Element]) -> Bool {
        var changed = false
        if removesAll {
            // NB: every element, also one a newer save brought: a save puts none back in a list.
            changed = !list.isEmpty
            list.removeAll()
        }
        if let removed {
            let count = list.count
            list.removeAll { $0.id == removed }
            changed = list.count != count
        }
        guard !saved.isEmpty else { return changed }
        let byID = Dictionary(saved.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        for position in list.indices {
            guard let element = byID[list[position].id], !isSame(list[position], element) else { continue }
            list[position] = element
            changed = true
        }
        return changed
    }
}

/// The identity of a tier over an ``ElementStore``, so a repository can tell its own writes.
final class WriteOrigin: Sendable {}

/// A persistent tier whose lists' elements live in an ``ElementStore``: an element is saved
/// through the store.
protocol ElementStoring<Key, Element>: Sendable {
    associatedtype Key: Hashable & Sendable
    associatedtype Element
    /// Saves `element` through the store; returns the keys of this tier's lists that held it.
    func save(_ element: Element) async throws -> [Key]
}
