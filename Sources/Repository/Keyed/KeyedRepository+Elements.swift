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
    @discardableResult
    public func save<Element: Identifiable & Sendable>(element: Element) async throws -> [Key]
    where Value == [Element] {
        var keys = Set(memory.keysByRecency)
        keys.formUnion(observedKeys)
        var patched: [Key] = []
        var failure: (any Error)?
        for key in keys {
            do {
                if try await patch(key, with: element) { patched.append(key) }
            } catch {
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
        return patched
    }

    /// Replaces the element with `element`'s id in the list of `key`; `false` when the list
    /// is not cached or does not hold it.
    private func patch<Element: Identifiable & Sendable>(_ key: Key, with element: Element) async throws -> Bool
    where Value == [Element] {
        // NB: under the key's write lock, so no other write lands between the read and the
        // write back (and a fetch that started before never overwrites the patch).
        try await withChannel(for: key) { channel in try await patch(key, in: channel, with: element) }
    }

    private func patch<Element: Identifiable & Sendable>(
        _ key: Key, in channel: KeyChannel<Value>, with element: Element
    ) async throws -> Bool where Value == [Element] {
        try await channel.writes.withLock { [self] in
            guard let hit = await lookUp(key).hit,
                let position = hit.value.firstIndex(where: { $0.id == element.id })
            else { return false }
            var list = hit.value
            list[position] = element
            let version = nextVersion()
            _ = channel.claim(version, ifUnwrittenSince: nil)
            try await writeThrough(list, for: key, in: channel, version: version, origin: .local)
            return true
        }
    }
}
