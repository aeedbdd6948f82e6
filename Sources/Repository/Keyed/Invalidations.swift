/// What ``KeyedRepository/invalidate(_:)``, ``KeyedRepository/invalidateAll()`` and the
/// matching invalidations marked stale: every value written at or below a version, for all
/// keys, for single keys, and for the keys (or values) a predicate matches.
@usableFromInline struct Invalidations<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// Values written at or below `version` that `matches` are stale.
    @usableFromInline struct Match: Sendable {
        @usableFromInline let version: UInt64
        @usableFromInline let matches: @Sendable (Key, Value) -> Bool
    }

    /// The most matches kept; a further one folds the oldest into ``all``.
    static var matchLimit: Int { 128 }

    /// Values of every key written at or below this version are stale.
    @usableFromInline var all: UInt64 = 0
    /// Values of a key written at or below its version here are stale.
    @usableFromInline var keys: [Key: UInt64] = [:]
    /// The predicates, oldest first.
    @usableFromInline var matches: [Match] = []

    @usableFromInline init() {}

    /// Whether the value of `key` written at `version` was invalidated for every key or for
    /// `key` (see ``matches(_:version:value:)`` for the predicates).
    @inlinable func contains(_ key: Key, version: UInt64) -> Bool {
        // NB: no hashing while no single key was invalidated: the memory-hit path stays short.
        version <= all || (!keys.isEmpty && version <= keys[key, default: 0])
    }

    /// Marks every value written up to `version` stale; the predicates it covers are dropped.
    mutating func invalidateAll(upTo version: UInt64) {
        all = max(all, version)
        matches.removeAll { $0.version <= all }
    }

    /// Adds a predicate; past ``matchLimit`` the oldest one widens to every key (a stale value
    /// is only revalidated, so the fold costs fetches, never a value).
    mutating func add(_ match: Match) {
        matches.append(match)
        if matches.count > Self.matchLimit { invalidateAll(upTo: matches.removeFirst().version) }
    }
}

extension Array {
    /// Whether one of these predicates marks the value of `key` written at `version` stale.
    /// Called outside the repository's lock: the predicates are the app's code.
    @inlinable func matches<Key, Value>(_ key: Key, version: UInt64, value: Value) -> Bool
    where Element == Invalidations<Key, Value>.Match {
        contains { version <= $0.version && $0.matches(key, value) }
    }
}
