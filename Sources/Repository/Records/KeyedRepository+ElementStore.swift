import ContentLoading
import ContentLoadingSupport
import Foundation

extension KeyedRepository {
    /// Creates a repository of lists whose elements live in `elements`: each list is stored as
    /// the ordered ids of its elements, each element once, and a save or removal made through
    /// the store (or ``save(element:)`` here) reaches every list holding its id, in memory, for
    /// live readers and on disk. When `Element` is `Equatable`, a list fetched in full is
    /// compared with the cached one, as for any `Equatable` value: the same list is
    /// ``CachedValue/isUnchanged``.
    ///
    /// ```swift
    /// let search = KeyedRepository<String, [Contact]>(elements: contacts) { query in try await api.search(query) }
    /// ```
    ///
    /// - Parameters:
    ///   - elements: The store of the lists' elements; its file is the disk tier.
    ///   - memory: The memory tier. Defaults to 100 entries.
    ///   - ages: When values become stale and expire. Defaults to ``CacheAges/default``.
    ///   - now: The wall clock (write times are stored on disk, so they outlive the process).
    ///   - retry: How a failed fetch is tried again. Defaults to `RetryPolicy.never`.
    ///   - fetchIfChanged: Fetches the list for a key unless the one held, identified by the
    ///     validators, is current. It runs once at a time per key.
    public convenience init<Element>(
        elements: ElementStore<Element>,
        memory: MemoryCache<Key, Value> = MemoryCache(countLimit: 100),
        ages: CacheAges = .default,
        now: @escaping @Sendable () -> Date = { Date() },
        retry: RetryPolicy = .never,
        fetchIfChanged: @escaping @Sendable (Key, Validators) async throws -> FetchResult<Value>
    ) where Value == [Element] {
        let tier = ElementListTier<Key, Element>(store: elements)
        // NB: an equal list confirms the cached one, which keeps what the file holds of each
        // element (its entity tag for the outbox's `If-Match` too). A confirmation never writes
        // the elements it compared over the rows (see `PersistentTier.confirming`), so an
        // element saved meanwhile keeps its save.
        self.init(
            memory: memory, tier: tier, disk: elements.disk, ages: ages, now: now, isUnchanged: Self.equality,
            retry: retry, fetchStored: { [elements] in elements.requestSucceeded() }, fetch: fetchIfChanged)
        // NB: the store keeps the listener: it holds the repository weakly and nothing that
        // holds the store (the tier does), or the store and its file would never be freed.
        let (holders, origin) = (tier.holders, tier.origin)
        elements.listen { [weak self] change in
            guard let self else { return false }
            await self.apply(change, holders: holders, origin: origin)
            self.invalidate(keysWithPrefixes: change.invalidatedKeyPrefixes)
            return true
        }
    }

    /// Creates a repository of lists whose elements live in `elements` (see the
    /// `fetchIfChanged` variant), for a fetch that always returns the whole list.
    public convenience init<Element>(
        elements: ElementStore<Element>,
        memory: MemoryCache<Key, Value> = MemoryCache(countLimit: 100),
        ages: CacheAges = .default,
        now: @escaping @Sendable () -> Date = { Date() },
        retry: RetryPolicy = .never,
        fetch: @escaping @Sendable (Key) async throws -> Value
    ) where Value == [Element] {
        self.init(
            elements: elements, memory: memory, ages: ages, now: now, retry: retry,
            fetchIfChanged: { key, _ in .modified(try await fetch(key), .none) })
    }

    /// Creates a repository of single elements by id (details) over `elements`: a read is
    /// served from the element's row, which every list of the store shares, so a detail opens
    /// at once from any list that held it; the policies, ages and revalidation are any key's.
    /// A save or removal made through the store reaches its readers.
    ///
    /// ```swift
    /// let detail = KeyedRepository<Contact.ID, Contact>(elements: contacts) { id in try await api.contact(id) }
    /// ```
    ///
    /// - Parameters: As the list variant's; `fetchIfChanged` fetches one element.
    public convenience init(
        elements: ElementStore<Value>,
        memory: MemoryCache<Key, Value> = MemoryCache(countLimit: 100),
        ages: CacheAges = .default,
        now: @escaping @Sendable () -> Date = { Date() },
        retry: RetryPolicy = .never,
        fetchIfChanged: @escaping @Sendable (Key, Validators) async throws -> FetchResult<Value>
    ) where Value: Identifiable & Codable, Value.ID == Key {
        let tier = ElementTier(store: elements)
        // NB: an equal element confirms the cached one, as for lists (see there).
        self.init(
            memory: memory, tier: tier, disk: elements.disk, ages: ages, now: now, isUnchanged: Self.equality,
            retry: retry, fetchStored: { [elements] in elements.requestSucceeded() }, fetch: fetchIfChanged)
        let origin = tier.origin
        elements.listen { [weak self] change in
            guard let self else { return false }
            await self.apply(change, origin: origin)
            self.invalidate(keysWithPrefixes: change.invalidatedKeyPrefixes)
            return true
        }
    }

    /// Creates a repository of single elements by id over `elements` (see the
    /// `fetchIfChanged` variant), for a fetch that always returns the element.
    public convenience init(
        elements: ElementStore<Value>,
        memory: MemoryCache<Key, Value> = MemoryCache(countLimit: 100),
        ages: CacheAges = .default,
        now: @escaping @Sendable () -> Date = { Date() },
        retry: RetryPolicy = .never,
        fetch: @escaping @Sendable (Key) async throws -> Value
    ) where Value: Identifiable & Codable, Value.ID == Key {
        self.init(
            elements: elements, memory: memory, ages: ages, now: now, retry: retry,
            fetchIfChanged: { key, _ in .modified(try await fetch(key), .none) })
    }
}

extension KeyedRepository {
    /// Invalidates every key whose ``CacheKey/persistentKey`` starts with one of `prefixes`
    /// (an element change's); nothing for none.
    func invalidate(keysWithPrefixes prefixes: [String]) {
        guard !prefixes.isEmpty else { return }
        invalidate { key in prefixes.contains { key.persistentKey.hasPrefix($0) } }
    }

    /// `==` when `Value` is `Equatable` (checked at run time: a list of `Equatable` elements
    /// is), so the element-store variants compare a fetched value as the `Equatable` ones do;
    /// `nil` otherwise.
    static var equality: (@Sendable (Value, Value) -> Bool)? {
        guard Value.self is any Equatable.Type else { return nil }
        return { lhs, rhs in isSame(lhs, rhs) }
    }
}
