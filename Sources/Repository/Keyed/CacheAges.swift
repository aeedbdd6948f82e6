/// How old a cached value may be: served and revalidated after ``staleAfter``, never served
/// (and removed) after ``expireAfter``. Both are measured from the value's write, on the
/// repository's clock, on every tier; the disk tier stores write times, so ages survive a
/// restart.
///
/// ```swift
/// let ages = CacheAges(staleAfter: .seconds(60), expireAfter: .seconds(24 * 3_600))
/// ```
public struct CacheAges: Sendable, Hashable {
    /// From this age on, a value is stale: a prefer-cache read serves it and revalidates.
    public var staleAfter: Duration
    /// From this age on, a value has expired: it is never served, and is removed when read.
    public var expireAfter: Duration

    /// Creates ages; `expireAfter` is at least `staleAfter`.
    public init(staleAfter: Duration, expireAfter: Duration) {
        self.staleAfter = staleAfter
        self.expireAfter = max(staleAfter, expireAfter)
    }

    /// Stale after five minutes, expired after a week.
    public static let `default` = CacheAges(staleAfter: .seconds(300), expireAfter: .seconds(7 * 24 * 3_600))
}
