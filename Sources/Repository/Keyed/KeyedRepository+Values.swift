import ContentLoadingSupport
import Foundation

extension KeyedRepository {
    /// The value of `key` in the memory tier, now, without waiting: for a view's first frame or
    /// a synchronous check. `nil` on a miss (the disk tier is not read) or when it has expired.
    @inlinable public func cachedValue(for key: Key) -> CachedValue<Value>? {
        guard let entry = memory.entry(for: key) else { return nil }
        let date = now()
        let age = age(of: entry.writtenAt, at: date)
        guard age < ages.expireAfter else { return nil }
        let stale = isStale(
            key, value: entry.value, writtenAt: entry.writtenAt, version: entry.version, validators: entry.validators,
            at: date)
        return CachedValue(value: entry.value, origin: .memory, age: age, isStale: stale)
    }

    /// The first value (or `nil` for "no value") that a read of `key` with `policy` delivers.
    ///
    /// A read that fetches first (``CachePolicy/reloadIgnoringCache``,
    /// ``CachePolicy/loadElseReturnCache``) joins the fetch in flight, unless its request
    /// started before a save, removal or invalidation of `key` made before this call: then it
    /// waits for the fetch after it, as ``refresh(_:)`` and ``freshValue(for:maxAge:)`` do.
    ///
    /// - Throws: The first error the read delivers before a value (for a
    ///   ``CachePolicy/loadElseReturnCache`` read, only when nothing is cached either).
    public func value(for key: Key, policy: CachePolicy = .returnCacheElseLoad) async throws -> CachedValue<Value>? {
        // NB: a read that serves the tiers first needs no stream when they answer: a hit (or,
        // requiring the cache, a miss) is the whole answer.
        if policy == .returnCacheElseLoad || policy == .returnCacheDontLoad {
            let (hit, failure) = await lookUp(key)
            if let failure { throw failure }
            if let hit {
                let date = now()
                let value = cachedValue(of: hit, for: key, refreshing: false, at: date)
                // NB: as a prefer-cache read's stream does: a stale value is served, and revalidated.
                guard value.isStale && policy == .returnCacheElseLoad else { return value }
                revalidate(key)
                return cachedValue(of: hit, for: key, refreshing: true, at: date)
            }
            if policy == .returnCacheDontLoad { return nil }
        }
        // NB: a read that fetches first is answered by a fetch whose request started after every
        // save, removal and invalidation of `key` made before it (its stream's first value could be
        // an older fetch's): the fetch's value, or (network-first) the cached one when it fails.
        if policy == .reloadIgnoringCache { return try await fetchedValue(for: key) }
        if policy == .loadElseReturnCache {
            do {
                return try await fetchedValue(for: key)
            } catch {
                guard !Task.isCancelled, let hit = await lookUp(key).hit else { throw error }
                return cachedValue(of: hit, for: key, refreshing: false, at: now())
            }
        }
        // NB: what is left reads the stream (a prefer-cache miss, a then-load read): its first event.
        for await event in events(for: key, policy: policy) {
            switch event {
            case .value(let value): return value
            case .noValue: return nil
            case .error(let error): throw error
            }
        }
        throw CancellationError()
    }
}
