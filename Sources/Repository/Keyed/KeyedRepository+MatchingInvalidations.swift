import Foundation

extension KeyedRepository {
    /// Marks stale the value of every key that `matches`, in memory and on disk, whatever its
    /// age: the next read of such a key revalidates it, and every live reader of one whose
    /// policy fetches gets it fetched again (as ``invalidate(_:)`` does for one key).
    ///
    /// ```swift
    /// searches.invalidate { $0.query.hasPrefix("ada") }
    /// ```
    ///
    /// Values written after the call are not affected. The predicate is kept (up to 128 of
    /// them; past that the oldest widens to every key, which costs fetches, never values) and
    /// is called outside the repository's locks, on the reading task.
    public func invalidate(where matches: @escaping @Sendable (Key) -> Bool) {
        invalidateEverythingWritten { key, _ in matches(key) }
        for (key, channel) in liveKeys where matches(key) { channel.invalidate() }
    }

    /// Marks stale the value of every key whose ``CacheKey/persistentKey`` starts with
    /// `prefix`, as ``invalidate(where:)`` does.
    ///
    /// ```swift
    /// feeds.invalidate(keysWithPrefix: "feed/")   // "feed/home", "feed/saved", …
    /// ```
    public func invalidate(keysWithPrefix prefix: String) {
        invalidate { $0.persistentKey.hasPrefix(prefix) }
    }

    /// Marks stale every list that holds an element with `id`, in memory and on disk: the next
    /// read of each revalidates it, and every live reader of one whose policy fetches gets it
    /// fetched again.
    ///
    /// ```swift
    /// let keys = await lists.invalidate(holding: contact.id)   // the server changed contact 42
    /// ```
    ///
    /// A list on disk only is checked when it is next read (no list is decoded now). A list
    /// being fetched that nothing held yet (a prefetch nobody reads) is stale once its fetch
    /// stores it holding the element: its request started before this call.
    ///
    /// - Returns: The keys of the lists in memory or with live readers that held the element.
    @discardableResult
    public func invalidate<Element: Identifiable & Sendable>(holding id: Element.ID) async -> [Key]
    where Value == [Element], Element.ID: Sendable {
        let holds: @Sendable ([Element]) -> Bool = { list in list.contains { $0.id == id } }
        invalidateEverythingWritten { _, list in holds(list) }
        var held: [Key] = []
        let examined = Set(memory.keysByRecency).union(observedKeys)
        // NB: a list being fetched that nothing here holds (a prefetch): whether it holds the
        // element is known once its fetch writes it, from a request that started before now.
        for (key, channel) in liveKeys where !examined.contains(key) && channel.flight.isRunning {
            channel.invalidateInFlight(matching: holds)
        }
        for key in examined {
            let list: [Element]?
            if let entry = memory.entry(for: key) { list = entry.value } else { list = await lookUp(key).hit?.value }
            guard let list, list.contains(where: { $0.id == id }) else { continue }
            held.append(key)
            existingChannel(for: key)?.invalidate()
        }
        return held
    }
}
