import Foundation

/// The tier behind a ``KeyedRepository``'s memory tier, the one that outlives the process:
/// the disk cache (``DiskTier``: values encoded in a ``DiskCache``), or an app's
/// ``LocalStore`` holding the single source of truth's collection as the value of one key
/// (``StoreTier``). The repository's reads, writes, versions and deliveries are the same over
/// either.
protocol PersistentTier<Key, Value>: Sendable {
    associatedtype Key: CacheKey
    associatedtype Value: Sendable

    /// The stored value of `key`, when it was written and at which version; `nil` when there is
    /// none.
    ///
    /// - Throws: An error naming what failed and where. A stored value that cannot be decoded
    ///   is removed before the error is thrown, so the next read is a plain miss.
    func entry(for key: Key, now: Date) async throws -> PersistedEntry<Value>?

    /// Stores `value` for `key` in one transaction, unless a later version is stored.
    func write(_ value: Value, for key: Key, version: UInt64, writtenAt: Date) async throws

    /// Records that a fetch found the stored value of `key` unchanged at `writtenAt`: its age
    /// starts again, nothing else changes.
    func confirm(_ key: Key, writtenAt: Date, version: UInt64) async throws

    /// Removes the value of `key`.
    func remove(_ key: Key) async throws
}

/// A value a ``PersistentTier`` holds, with its write time and version.
struct PersistedEntry<Value: Sendable>: Sendable {
    let value: Value
    let writtenAt: Date
    let version: UInt64
}
