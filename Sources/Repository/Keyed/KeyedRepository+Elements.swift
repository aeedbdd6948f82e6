import Foundation

extension KeyedRepository {
    /// Saves one element of the lists this repository holds: every list that holds an element
    /// with the same id gets it in that element's place, order kept, and every live reader of
    /// those lists gets the new list at once (origin ``CacheOrigin/local``), with no request.
    ///
    /// Lists are stored whole under their key (in memory, and as one entry on disk); an
    /// element save patches each list in the memory tier or with a live reader, and writes the
    /// patched list through the tiers (the disk tier first: a list whose disk write fails keeps
    /// its old element, and its readers get the error). The list is patched as the disk tier
    /// holds it, read and written in one transaction, so a save of the list by another
    /// repository or process on the file is not written over. A fetch of a list that started
    /// before the save never overwrites it; concurrent element saves of one list all land.
    ///
    /// ```swift
    /// let lists = KeyedRepository<SearchKey, [Contact]>(fetch: api.search)
    /// try await lists.save(element: edited)   // every list showing `edited.id` shows the edit
    /// ```
    ///
    /// - Note: A list that is only on disk (evicted from memory, no live reader) is not
    ///   patched: it keeps the old element until its next fetch or save. A repository made over
    ///   an ``ElementStore`` (`init(elements:…)`) has no such limit: this saves through the
    ///   store, one row that every list reads (see ``ElementStore/save(_:)``).
    /// - Returns: The keys of the lists that held the element (for a repository over an
    ///   ``ElementStore``, those in memory or with live readers).
    /// - Throws: The first ``CacheError`` of a disk write; the other lists are patched all the
    ///   same.
    @inlinable @discardableResult
    public func save<Element: Identifiable & Sendable>(element: Element) async throws -> [Key]
    where Value == [Element] {
        if let keys = try await savedThroughStore(element) { return keys }
        // NB: inlinable, so the search and the edit run specialised for the app's element type
        // (C4: a generic search of 100,000 ids cost more than the whole rest of the save).
        return try await patchEveryList(
            find: { list in list.firstIndex { $0.id == element.id } },
            replace: { list, position in
                guard list.indices.contains(position), list[position].id == element.id else { return false }
                list[position] = element
                return true
            })
    }

    /// Patches each list in the memory tier or with a live reader: `find` says where in it
    /// (`nil`: leave it), `replace` patches it there (`false`: leave it). The patched lists go
    /// through the tiers to their readers.
    ///
    /// - Returns: The keys of the lists that were patched.
    /// - Throws: The first error of a disk write; every list is patched all the same.
    @usableFromInline func patchEveryList(
        find: @escaping @Sendable (Value) -> Int?, replace: @escaping @Sendable (inout Value, Int) -> Bool
    ) async throws -> [Key] {
        var keys = Set(memory.keysByRecency)
        keys.formUnion(observedKeys)
        var patched: [Key] = []
        var failure: (any Error)?
        for key in keys {
            do {
                let wasPatched = try await withChannel(for: key) {
                    try await self.patch(key, in: $0, find: find, replace: replace)
                }
                if wasPatched { patched.append(key) }
            } catch {
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
        return patched
    }

    /// Patches the value of `key` where `find` says; `false` when it is not cached or is left.
    private func patch(
        _ key: Key, in channel: KeyChannel<Value>, find: @Sendable (Value) -> Int?,
        replace: @Sendable (inout Value, Int) -> Bool
    ) async throws -> Bool {
        // NB: under the key's write lock, so no other write lands between the search and the
        // write back (and a fetch that started before never overwrites the patch).
        try await channel.writes.withLock { [self] in
            guard let hit = await lookUp(key).hit, let position = find(hit.value) else { return false }
            // NB: with nothing behind memory, memory is the store: the list is edited in place
            // unless a reader holds it (C4: the copy and the free of a 100,000-element list were
            // 85% of a save).
            if tier == nil {
                let (version, writtenAt) = (nextVersion(), now())
                guard let edited = memory.edit(key, version: version, writtenAt: writtenAt, { replace(&$0, position) })
                else { return false }
                publish(
                    .value(edited, origin: .local, writtenAt: writtenAt, version: version, validators: .none),
                    in: channel)
                return true
            }
            // NB: persist, then deliver: a patched copy goes to the persistent tier first, found
            // again in the list the tier reads in the write's transaction, so a write of the list
            // by another repository or process on the file since memory read it stays.
            let updated = try await updateStored(key, held: hit, in: channel) { list in
                guard var list, let position = find(list), replace(&list, position) else { return nil }
                return list
            }
            if let (_, delivery) = updated { return delivery != nil }
            var list = hit.value
            guard replace(&list, position) else { return false }
            try await reportingFailure(in: channel) {
                try await writeThrough(list, for: key, in: channel, origin: .local)
            }
            return true
        }
    }
}
