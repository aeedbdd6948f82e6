/// Whether and when a read of a ``KeyedRepository`` fetches. It decides nothing else: every
/// value a read delivers comes from the tiers, which every fetch and save writes through.
///
/// | policy | serves | fetches |
/// |---|---|---|
/// | ``returnCacheElseLoad`` (default) | a fresh or stale cached value | on a miss, or in the background once stale |
/// | ``returnCacheDontLoad`` | the cached value, or ``CacheEvent/noValue`` (not an error) | never |
/// | ``reloadIgnoringCache`` | the fetched value (then cached) | always, first |
/// | ``returnCacheThenLoad`` | the cached value at once, then the fetched one | always, after the cached value |
/// | ``loadElseReturnCache`` | the fetched value; the cached one if the fetch fails | always, first |
public enum CachePolicy: Sendable, Hashable, CaseIterable {
    /// Prefer the cache: a cached value (stale ones too, revalidated in the background); fetch
    /// on a miss.
    case returnCacheElseLoad
    /// Require the cache: the cached value, or ``CacheEvent/noValue``; never fetch.
    case returnCacheDontLoad
    /// Always fetch, ignoring what is cached; the result is cached.
    case reloadIgnoringCache
    /// Stale-while-revalidate: the cached value at once, then always fetch.
    case returnCacheThenLoad
    /// Network first: fetch, and serve the cached value when the fetch fails (the error is
    /// still reported as an event).
    case loadElseReturnCache
}
