import ContentLoading
import ContentLoadingSupport
import Foundation

extension KeyedRepository {
    /// Brings an element change to every list of this repository that holds one of its ids
    /// (and to nothing else), but the list whose write it was, without the elements a newer
    /// change brought first (see `ElementVersions`): the list in memory is edited in
    /// place (its age kept: the rest of it is as old as it was; its validators too, but after a
    /// removal, which leaves it no longer the server's list), and its readers
    /// get it; a list with readers that memory no longer holds is read again from the store,
    /// which already joins the change.
    func apply<Element>(
        _ change: ElementChange<Element>, holders: ElementHolders<Key, Element.ID>, origin: WriteOrigin
    ) async where Value == [Element] {
        let keys = change.removesAll ? holders.keys : holders.keys(holdingAnyOf: change.ids)
        for key in keys where !change.isSource(origin, key: key) {
            await withChannel(for: key) { channel in
                await channel.writes.withLock { [self] in
                    // NB: under the key's write lock: a write of the whole list after the change
                    // has its elements already, and is never followed by this older one. An edit
                    // by a newer change of other elements is no reason to leave this one out.
                    guard !wasWrittenWhole(key, in: channel, after: change.version) else { return }
                    let change = change.current()
                    guard !change.isEmpty else { return }
                    // NB: the latest version the key has had: changes of different elements
                    // come in any order, and a reader given a later one still gets this edit.
                    let version = max(change.version, channel.writtenVersion)
                    // NB: only the entry's stamps are kept: a reference to its list would make
                    // the edit copy it.
                    if let entry = memory.entry(for: key).map({ ($0.writtenAt, $0.version, $0.validators) }) {
                        let positions = holders.positions(of: change.ids, in: key)
                        // NB: a removal leaves the list without the element, which the server's
                        // list (its validators') still holds: its next fetch is a full one, as the
                        // file's (`DiskCache.forgetValidators(ofListsHolding:id:)`).
                        let isRemoval = change.removed != nil || change.removesAll
                        // NB: an outbox's change that leaves the list as it was still tells its
                        // readers where it now comes from (pending, or confirmed: remote).
                        guard
                            let edited = memory.edit(
                                key, version: change.version, writtenAt: nil, droppingValidators: isRemoval,
                                { change.apply(to: &$0, at: positions) })
                                ?? (change.origin == .local ? nil : memory.entry(for: key)?.value)
                        else { return }
                        // NB: a removal moves the elements after it (one place up, when one id
                        // held once went: no need to go through the whole list).
                        if isRemoval {
                            let moved =
                                !change.removesAll && change.removed.map { holders.remove($0, from: key) } == true
                            if !moved { holders.hold(edited.map(\.id), in: key) }
                        }
                        publish(
                            .edited(
                                edited, origin: change.origin, writtenAt: entry.0, version: max(version, entry.1),
                                validators: isRemoval ? .none : entry.2),
                            in: channel)
                    } else if channel.readers.subscriberCount > 0 {
                        guard let hit = await lookUp(key).hit else { return }
                        publish(
                            .edited(
                                hit.value, origin: change.origin, writtenAt: hit.writtenAt,
                                version: max(version, hit.version), validators: hit.validators),
                            in: channel)
                    } else {
                        // NB: a list on disk only already joins the change; it is not held here any
                        // more. Under memory's lock: a read promoting the list now holds it again.
                        memory.withoutEntry(for: key) { holders.release(key) }
                    }
                }
            }
        }
    }

    /// Brings an element change to the readers of its ids in this repository of elements by
    /// id (but the key whose write it was, and an element a newer change brought first): the
    /// element in memory is replaced (or removed), and its readers get it.
    func apply(_ change: ElementChange<Value>, origin: WriteOrigin) async
    where Value: Identifiable, Value.ID == Key {
        var saved = change.saved.map { ($0.id, Optional($0)) } + (change.removed.map { [($0, nil)] } ?? [])
        // NB: a removal of every element reaches every element this repository holds or reads
        // (but its own: its `removeAll()` told its readers).
        if change.removesAll, !change.isFrom(origin) {
            saved += Set(memory.keysByRecency).union(liveKeys.map(\.0)).map { ($0, nil) }
        }
        for (key, element) in saved where !change.isSource(origin, key: key) {
            guard memory.entry(for: key) != nil || existingChannel(for: key) != nil else { continue }
            await withChannel(for: key) { channel in
                await channel.writes.withLock { [self] in
                    // NB: as for a list, only a write of the whole element after the change holds
                    // it: a 304 or an equal fetch confirmed the element as read before, also when
                    // its row was edited since by a change still on its way here (an outbox's
                    // mutation performed during the fetch, the row keeping the server's entity tag).
                    guard !wasWrittenWhole(key, in: channel, after: change.version), !change.isSuperseded(key) else {
                        return
                    }
                    guard let element else {
                        memory.remove(key)
                        publish(.removed(version: change.version), in: channel)
                        return
                    }
                    if change.origin == .local, let held = memory.entry(for: key), isSame(held.value, element) {
                        return
                    }
                    // NB: given at the latest version the key has had, as an edit, so a reader
                    // given that confirmation gets it too.
                    let version = max(change.version, channel.writtenVersion)
                    memory.store(
                        .init(
                            value: element, writtenAt: change.writtenAt, version: version,
                            wholeVersion: change.version),
                        for: key)
                    publish(
                        version == change.version
                            ? .value(element, origin: change.origin, writtenAt: change.writtenAt, version: version)
                            : .edited(
                                element, origin: change.origin, writtenAt: change.writtenAt, version: version,
                                validators: .none),
                        in: channel)
                }
            }
        }
    }

    /// Whether `key` was written whole (not an edit of some of its elements) after `version`:
    /// that write holds every element at least as new as a change made at `version` (a saved
    /// one is older, a removed one was put back). Memory's entry tells it too: the channel may
    /// no longer recall that write (dropped once the write let the key go, before the write
    /// shared its elements, which `current()` would then have told).
    private func wasWrittenWhole(_ key: Key, in channel: KeyChannel<Value>, after version: UInt64) -> Bool {
        if channel.wasWrittenWhole(after: version) { return true }
        return (memory.entry(for: key)?.wholeVersion ?? 0) > version
    }

    /// Saves `element` through the store, when this repository's lists live in one.
    ///
    /// - Returns: The keys of the lists in memory or with readers that held it; `nil` when the
    ///   lists are stored whole.
    @usableFromInline func savedThroughStore<Element: Identifiable & Sendable>(_ element: Element) async throws
        -> [Key]?
    where Value == [Element] {
        guard let tier = tier as? any ElementStoring<Key, Element> else { return nil }
        return try await tier.save(element)
    }
}
