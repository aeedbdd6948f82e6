import ContentLoadingSupport

/// Which keys of one repository hold which elements, for the lists that went through its
/// persistent tier in this process (read or written): an element change notifies exactly the
/// keys that hold its id, not every list.
///
/// A key stays until its list is written again without the element or removed; a key whose
/// list has left memory and has no reader is dropped when a change finds it.
final class ElementHolders<Key: Hashable & Sendable, ID: Hashable & Sendable>: Sendable {
    /// The keys holding each element, and for each key where it holds each element (`-1`:
    /// more than once).
    private let state = Locked((byElement: [ID: Set<Key>](), byKey: [Key: [ID: Int]]()))

    /// Records that the list of `key` holds the elements `ids`, in that order (and no others).
    func hold(_ ids: some Sequence<ID>, in key: Key) {
        var positions: [ID: Int] = [:]
        for (position, id) in ids.enumerated() {
            if positions.updateValue(position, forKey: id) != nil { positions[id] = -1 }
        }
        state.withLock { state in
            let held = state.byKey[key] ?? [:]
            for id in held.keys where positions[id] == nil {
                state.byElement[id]?.remove(key)
                if state.byElement[id]?.isEmpty == true { state.byElement[id] = nil }
            }
            for id in positions.keys where held[id] == nil { state.byElement[id, default: []].insert(key) }
            state.byKey[key] = positions.isEmpty ? nil : positions
        }
    }

    /// Records that the list of `key` no longer holds `id`, which it held once, and that the
    /// elements after it moved up a place: what ``hold(_:in:)`` of the list without it records,
    /// without going through the list's ids (with 100,000, that took most of a removal's
    /// 80 ms). `false`, and nothing changed, when the list does not hold `id` once.
    func remove(_ id: ID, from key: Key) -> Bool {
        state.withLock { state in
            // NB: taken out of the table and put back, so its positions are edited in place.
            guard var held = state.byKey.removeValue(forKey: key) else { return false }
            defer { state.byKey[key] = held.isEmpty ? nil : held }
            guard let removed = held[id], removed >= 0 else { return false }
            held[id] = nil
            var index = held.values.startIndex
            while index != held.values.endIndex {
                if held.values[index] > removed { held.values[index] -= 1 }
                held.values.formIndex(after: &index)
            }
            state.byElement[id]?.remove(key)
            if state.byElement[id]?.isEmpty == true { state.byElement[id] = nil }
            return true
        }
    }

    /// Records that the list of `key` holds the elements `ids` too, in that order, as a read
    /// found it: the elements the key holds already stay, where they were. A read may have
    /// begun before a write of the key that held a newer list (its elements too), so a read
    /// never takes one away: replacing them, it hid the newer list from the changes of the
    /// elements only it holds. (A position that is no longer right is checked where it is used.)
    func holdToo(_ ids: some Sequence<ID>, in key: Key) {
        state.withLock { state in
            var held = state.byKey[key] ?? [:]
            for (position, id) in ids.enumerated() where held[id] == nil {
                held[id] = position
                state.byElement[id, default: []].insert(key)
            }
            state.byKey[key] = held.isEmpty ? nil : held
        }
    }

    /// Records what the list of `key` holds (`ids`, made only then) when nothing is recorded for
    /// it: a list going into memory after a change dropped it (see
    /// `KeyedRepository+ElementChanges.swift`).
    func holdIfDropped(_ ids: () -> [ID], in key: Key) {
        guard state.withLock({ $0.byKey[key] == nil }) else { return }
        holdToo(ids(), in: key)
    }

    /// Where the list of `key` holds the elements `ids` it holds (`-1`: more than once), as
    /// its last write or read left it.
    func positions(of ids: [ID], in key: Key) -> [ID: Int] {
        state.withLock { state in
            guard let held = state.byKey[key] else { return [:] }
            return ids.reduce(into: [:]) { positions, id in positions[id] = held[id] }
        }
    }

    /// Forgets the list of `key`.
    func release(_ key: Key) { hold([], in: key) }

    /// Forgets every list.
    func releaseAll() { state.withLock { $0 = ([:], [:]) } }

    /// The keys whose lists hold the element `id`.
    func keys(holding id: ID) -> Set<Key> { state.withLock { $0.byElement[id] ?? [] } }

    /// Every key held.
    var keys: Set<Key> { state.withLock { Set($0.byKey.keys) } }

    /// The keys whose lists hold any of the elements `ids`.
    func keys(holdingAnyOf ids: [ID]) -> Set<Key> {
        state.withLock { state in
            ids.reduce(into: Set<Key>()) { keys, id in
                if let holders = state.byElement[id] { keys.formUnion(holders) }
            }
        }
    }
}
