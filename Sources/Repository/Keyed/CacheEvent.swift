/// Where a delivered value came from.
public enum CacheOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The memory tier.
    case memory
    /// The disk tier (the value is now in memory too).
    case disk
    /// A fetch, or the server's answer to an ``Outbox``'s mutation (confirmed, or rolled
    /// back to the server's value) when the element has no other pending.
    case remote
    /// A ``KeyedRepository/save(_:for:)`` in this process.
    case local
    /// A mutation performed through an ``Outbox`` that the server has not confirmed yet
    /// (or, after one was confirmed or rolled back, the others still pending on the element).
    case pending

    /// "memory", "disk", "remote", "local", "pending".
    public var description: String {
        switch self {
        case .memory: "memory"
        case .disk: "disk"
        case .remote: "remote"
        case .local: "local"
        case .pending: "pending"
        }
    }
}

/// A value a read delivers: where it came from and how old it is.
public struct CachedValue<Value: Sendable>: Sendable {
    /// The value.
    public let value: Value
    /// Where it came from.
    public let origin: CacheOrigin
    /// Its age when delivered, from its write on the repository's clock.
    public let age: Duration
    /// Whether it was older than ``CacheAges/staleAfter`` (or invalidated) when delivered.
    public let isStale: Bool
    /// Whether the read that delivered it has a fetch on the way: a newer value or an error
    /// follows (a ``CachePolicy/returnCacheThenLoad`` read's cached value, a stale value being
    /// revalidated). A screen keeps showing the value and says it is refreshing.
    public let isRefreshing: Bool
    /// Whether a fetch found this value unchanged (the server answered `304 Not Modified`, or
    /// sent an equal value): nothing new was written, and its age starts again. The read that
    /// gets it had shown it already, said it was refreshing, or was waiting for the fetch.
    public let isUnchanged: Bool

    /// Creates a delivered value.
    public init(
        value: Value, origin: CacheOrigin, age: Duration, isStale: Bool, isRefreshing: Bool = false,
        isUnchanged: Bool = false
    ) {
        self.value = value
        self.origin = origin
        self.age = age
        self.isStale = isStale
        self.isRefreshing = isRefreshing
        self.isUnchanged = isUnchanged
    }
}

/// What a read of a ``KeyedRepository`` delivers: values, "no value", and errors as events
/// that never end the stream.
public enum CacheEvent<Value: Sendable>: Sendable {
    /// A value, tagged with its origin and age.
    case value(CachedValue<Value>)
    /// Nothing is cached (a ``CachePolicy/returnCacheDontLoad`` read on a miss), or the value
    /// was removed. Not an error.
    case noValue
    /// A fetch, a disk read or a disk write failed; values keep coming.
    case error(any Error)

    /// The value, if this is one.
    public var cachedValue: CachedValue<Value>? {
        if case .value(let value) = self { value } else { nil }
    }
}
