import Foundation

extension KeyedRepository {
    /// Saves one element of the lists this repository holds: every list that holds an element
    /// with the same id gets it in that element's place, order kept, and every live reader of
    /// those lists gets the new list at once (origin ``CacheOrigin/local``), with no request.
    ///
    /// Lists are stored whole under their key (in memory, and as one entry on disk); an
    /// element save patches each list in the memory tier or with a live reader, and writes the
    /// patched list through the tiers. A fetch of a list that started before the save never
    /// overwrites it; concurrent element saves of one list all land.
    ///
    /// ```swift
    /// let lists = KeyedRepository<SearchKey, [Contact]>(fetch: api.search)
    /// try await lists.save(element: edited)   // every list showing `edited.id` shows the edit
    /// ```
    ///
    /// - Note: A list that is only on disk (evicted from memory, no live reader) is not
    ///   patched: it keeps the old element until its next fetch or save.
    /// - Returns: The keys of the lists that held the element.
    /// - Throws: The first ``CacheError`` of a disk write; every list is patched in memory and
    ///   delivered all the same.
    @inlinable @discardableResult
    public func save<Element: Identifiable & Sendable>(element: Element) async throws -> [Key]
    where Value == [Element] {
        // NB: inlinable, so the search and the copy run specialised for the app's element type
        // (C4: a generic search of 100,000 ids cost more than the whole rest of the save).
        try await patchEveryList { list in
            guard let position = list.firstIndex(where: { $0.id == element.id }) else { return nil }
            var patched = list
            patched[position] = element
            return patched
        }
    }

    /// Replaces each list in the memory tier or with a live reader by what `patch` makes of
    /// it (`nil`: leave it), through the tiers, to its readers.
    ///
    /// - Returns: The keys of the lists that were patched.
    /// - Throws: The first error of a disk write; every list is patched all the same.
    @usableFromInline func patchEveryList(_ patch: @escaping @Sendable (Value) -> Value?) async throws -> [Key] {
        var keys = Set(memory.keysByRecency)
        keys.formUnion(observedKeys)
        var patched: [Key] = []
        var failure: (any Error)?
        for key in keys {
            do {
                if try await withChannel(for: key, { try await self.patch(key, in: $0, with: patch) }) {
                    patched.append(key)
                }
            } catch {
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
        return patched
    }

    /// Replaces the value of `key` by what `patch` makes of it; `false` when it is not cached
    /// or `patch` leaves it.
    private func patch(_ key: Key, in channel: KeyChannel<Value>, with patch: @Sendable (Value) -> Value?)
        async throws -> Bool
    {
        // NB: under the key's write lock, so no other write lands between the read and the
        // write back (and a fetch that started before never overwrites the patch).
        try await channel.writes.withLock { [self] in
            guard let hit = await lookUp(key).hit, let patched = patch(hit.value) else { return false }
            let version = nextVersion()
            _ = channel.claim(version, ifUnwrittenSince: nil)
            try await writeThrough(patched, for: key, in: channel, version: version, origin: .local)
            return true
        }
    }
}
