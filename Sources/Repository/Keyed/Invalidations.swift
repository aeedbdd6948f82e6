/// What ``KeyedRepository/invalidate(_:)`` and ``KeyedRepository/invalidateAll()`` marked
/// stale: every value written at or below a version, for all keys and for single keys.
@usableFromInline struct Invalidations<Key: Hashable>: Sendable where Key: Sendable {
    /// Values of every key written at or below this version are stale.
    @usableFromInline var all: UInt64 = 0
    /// Values of a key written at or below its version here are stale.
    @usableFromInline var keys: [Key: UInt64] = [:]

    @usableFromInline init() {}

    /// Whether the value of `key` written at `version` was invalidated.
    @inlinable func contains(_ key: Key, version: UInt64) -> Bool {
        // NB: no hashing while no single key was invalidated: the memory-hit path stays short.
        version <= all || (!keys.isEmpty && version <= keys[key, default: 0])
    }
}
