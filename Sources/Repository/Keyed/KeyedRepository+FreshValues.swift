import Foundation

extension KeyedRepository {
    /// The value of `key`, fresh: the cached one when it is fresh, else the one a fetch brings,
    /// waited for (the fetch in flight, when one is, unless its request started before a save,
    /// removal or invalidation of `key` made before this call: then the one after it).
    ///
    /// A cached value is fresh when it is younger than `maxAge` (with none given: than its
    /// stale age, from ``CacheAges/staleAfter`` or the server's `Cache-Control` / `Expires`)
    /// and no invalidation since it was written marks it stale. Unlike a
    /// ``CachePolicy/returnCacheElseLoad`` read, a stale value is never returned: the call
    /// waits for the fetch, and throws when it fails. It is TanStack Query's
    /// `fetchQuery({ queryKey, staleTime })`, and Store5's `get(key)` with a `Validator`.
    ///
    /// ```swift
    /// let shown = try await contacts.freshValue(for: sellerID, maxAge: .seconds(60))   // at most a minute old
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - maxAge: The age from which a cached value is not served; `nil`: its stale age. A
    ///     value past the repository's ``CacheAges/expireAfter`` is never served, whatever
    ///     `maxAge` says.
    /// - Returns: The fresh cached value (origin ``CacheOrigin/memory`` or
    ///   ``CacheOrigin/disk``), or the fetched one (then stored, as any fetch's); `nil` when the
    ///   fetch's value was not kept (a removal of `key` landed while it ran).
    /// - Throws: The fetch's error (the stale value stays cached: read it with
    ///   ``value(for:policy:)``); the error of reading a stored value that cannot be read;
    ///   `CancellationError` when the calling task is cancelled.
    public func freshValue(for key: Key, maxAge: Duration? = nil) async throws -> CachedValue<Value>? {
        let (hit, failure) = await lookUp(key)
        if let failure { throw failure }
        if let hit {
            let date = now()
            let isStale =
                if let maxAge {
                    isOld(hit.writtenAt, past: maxAge, at: date)
                        || isInvalidated(key, value: hit.value, version: hit.version)
                } else {
                    isStale(
                        key, value: hit.value, writtenAt: hit.writtenAt, version: hit.version,
                        validators: hit.validators, at: date)
                }
            if !isStale { return cachedValue(of: hit, for: key, refreshing: false, at: date) }
        }
        return try await fetchedValue(for: key)
    }

    /// The value a fetch of `key` brings, waited for (the fetch in flight, when one is, unless
    /// its request started before a save, removal or invalidation of `key` made before this
    /// call: then the one after it); the tiers' value when a save or removal landed while it
    /// ran, `nil` when that left none. Throws the fetch's error.
    func fetchedValue(for key: Key) async throws -> CachedValue<Value>? {
        try await withChannel(for: key) { channel in
            // NB: not a fetch whose request started before a save, removal or invalidation of
            // `key` (see `flight(_:in:unlessWrittenAfter:skippingFresh:)`).
            let end = try await flight(key, in: channel)
            _ = try end.result.get()
            switch end.delivery {
            case .value(let value, let origin, let writtenAt, let version, let validators)?:
                let hit = Hit(
                    value: value, writtenAt: writtenAt, version: version, origin: origin, validators: validators)
                return cachedValue(of: hit, for: key, refreshing: false, at: now())
            case .confirmed(let value, let writtenAt, let version, let validators)?:
                let hit = Hit(
                    value: value, writtenAt: writtenAt, version: version, origin: .remote, validators: validators)
                return cachedValue(of: hit, for: key, refreshing: false, unchanged: true, at: now())
            default:
                // NB: a save or removal since the fetch started kept its own value.
                let (hit, failure) = await lookUp(key)
                if let failure { throw failure }
                return hit.map { cachedValue(of: $0, for: key, refreshing: false, at: now()) }
            }
        }
    }
}
