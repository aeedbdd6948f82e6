import ContentLoading
import Foundation

extension KeyedRepository where Value: Codable & Equatable {
    /// Creates a repository whose fetches are conditional: each gets the `Validators` stored
    /// with the cached value (HTTP `ETag` and `Last-Modified`) and answers
    /// `FetchResult.notModified(_:)` when the server says the value has not changed (304).
    /// A value fetched in full is still compared with the cached one.
    ///
    /// The validators are stored with each value, in memory and on disk (so they survive a
    /// restart). A "not modified" decodes and writes nothing: the cached value's age starts
    /// again, a read waiting for the fetch gets it marked ``CachedValue/isUnchanged``, and the
    /// sync outcome is ``SyncOutcome/notModified``. A "not modified" for a key with no cached
    /// value is an ``UnexpectedNotModified`` error, and the next fetch goes without validators.
    /// A save stores no validators, so the fetch after it is a full one.
    ///
    /// ```swift
    /// let contacts = KeyedRepository<String, [Contact]>(disk: disk) { sellerID, validators in
    ///     try await client.fetch([Contact].self, from: api.contactsURL(sellerID), ifChangedSince: validators)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - memory: The memory tier. Defaults to 100 entries.
    ///   - disk: The disk tier; `nil` for memory only.
    ///   - ages: When values become stale and expire. Defaults to ``CacheAges/default``.
    ///   - now: The wall clock. Inject a test clock to move time by hand.
    ///   - retry: How a failed fetch is tried again. Defaults to `RetryPolicy.never`.
    ///   - fetchIfChanged: Fetches the value for a key unless the one held, identified by the
    ///     validators, is current. It runs once at a time per key.
    public convenience init(
        memory: MemoryCache<Key, Value> = MemoryCache(countLimit: 100),
        disk: DiskCache? = nil,
        ages: CacheAges = .default,
        now: @escaping @Sendable () -> Date = { Date() },
        retry: RetryPolicy = .never,
        fetchIfChanged: @escaping @Sendable (Key, Validators) async throws -> FetchResult<Value>
    ) {
        self.init(
            memory: memory, tier: disk.map { DiskTier<Key, Value>(cache: $0) }, disk: disk, ages: ages, now: now,
            isUnchanged: { $0 == $1 }, retry: retry, fetch: fetchIfChanged)
    }
}

extension KeyedRepository where Value: Codable {
    /// Creates a repository whose fetches are conditional (see the `Equatable` variant), for
    /// values that are not compared.
    ///
    /// - Parameters:
    ///   - memory: The memory tier. Defaults to 100 entries.
    ///   - disk: The disk tier; `nil` for memory only.
    ///   - ages: When values become stale and expire. Defaults to ``CacheAges/default``.
    ///   - now: The wall clock. Inject a test clock to move time by hand.
    ///   - retry: How a failed fetch is tried again. Defaults to `RetryPolicy.never`.
    ///   - fetchIfChanged: Fetches the value for a key unless the one held, identified by the
    ///     validators, is current. It runs once at a time per key.
    public convenience init(
        memory: MemoryCache<Key, Value> = MemoryCache(countLimit: 100),
        disk: DiskCache? = nil,
        ages: CacheAges = .default,
        now: @escaping @Sendable () -> Date = { Date() },
        retry: RetryPolicy = .never,
        fetchIfChanged: @escaping @Sendable (Key, Validators) async throws -> FetchResult<Value>
    ) {
        self.init(
            memory: memory, tier: disk.map { DiskTier<Key, Value>(cache: $0) }, disk: disk, ages: ages, now: now,
            retry: retry, fetch: fetchIfChanged)
    }
}
