import ContentLoading
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

    /// The validators stored with the value of `key` and its write time, without reading the
    /// value; `nil` when there is none (or the tier keeps no validators).
    func validators(for key: Key) async throws -> (validators: Validators, writtenAt: Date)?

    /// Stores `value` for `key` with the validators its fetch got, in one transaction. A write
    /// after version `started` (`nil`: a save, which overwrites whatever is there) is kept: a
    /// tier that stores parts of values on their own (elements) keeps such a part, another the
    /// whole value stored.
    ///
    /// - Returns: The version the tier stored it at (from a counter the write's transaction
    ///   advances; `nil` when the tier keeps no versions: the repository orders its writes),
    ///   and the value as stored when a part of it was kept.
    func write(
        _ value: Value, for key: Key, writtenAt: Date, validators: Validators, keepingWritesAfter started: UInt64?
    )
        async throws -> TierWrite<Value>

    /// Reads the stored value of `key` and writes what `transform` makes of it (as a save
    /// writes one), in one transaction: no other write of the file lands between the two.
    /// `transform` is given the stored entry (`nil`: none; an expired one too) and returns the
    /// value to write (`nil`: nothing is written); it throws its errors as
    /// ``UpdateTransformFailure``s, which the tier throws as they are.
    ///
    /// - Returns: What was read and written; `nil` when the tier cannot read and write in one
    ///   transaction (then nothing was read or written: the repository reads, then writes).
    func update(
        _ key: Key, now: Date, writtenAt: Date,
        _ transform: @escaping @Sendable (PersistedEntry<Value>?) throws -> Value?
    ) async throws -> TierUpdate<Value>?

    /// Records that a fetch found `value`, the value of `key` it compared, unchanged (see
    /// ``Confirmation``): its age starts again. When the stored entry is no longer the one
    /// compared (another repository or process wrote it, or it went), `value` is written
    /// instead, keeping what was written since: every part of it the tier stores on its own
    /// and still holds, or (a tier that stores values whole) the entry.
    ///
    /// - Returns: The version of the confirmation (`nil` when the tier keeps no versions), and
    ///   the value as stored when a part of it was kept.
    func confirm(_ value: Value, for key: Key, _ confirmation: Confirmation) async throws -> TierWrite<Value>

    /// Removes the value of `key`.
    ///
    /// - Returns: The version of the removal; `nil` when the tier keeps no versions.
    func remove(_ key: Key) async throws -> UInt64?

    /// Removes the value of `key` that a read found at `version` and that expired, unless it
    /// was written since (a save that landed after the read stays).
    func discardExpired(_ key: Key, foundAt version: UInt64) async throws

    /// Removes every value the tier holds.
    ///
    /// - Returns: The version of the removal; `nil` when the tier keeps no versions.
    func removeAll() async throws -> UInt64?

    /// The highest version the tier has seen (written or read); 0 when it keeps none.
    var latestVersion: UInt64 { get }

    /// Whether a stored value can grow younger with no write of its key (an element's detail
    /// takes the age of a list holding it that a 304 confirmed since): a value stale in memory
    /// is then looked up in this tier before it is fetched again.
    var agesRenewWithoutWrites: Bool { get }

    /// The highest version written so far, by this process or another on the same file
    /// (what an invalidation marks stale); at least ``latestVersion``; 0 when it keeps none.
    var fileVersion: UInt64 { get }

    /// The version a fetch takes that started when the tier had seen version `seen` (its
    /// ``latestVersion`` then), read just before the request: a write after it, in this
    /// process or another, is one the fetch keeps. At least `seen`.
    func startVersion(since seen: UInt64) async -> UInt64

    /// Called after a write of `value` for `key` at `version` reached memory and the readers,
    /// outside the key's locks: a tier whose values share parts with other keys (elements)
    /// brings the new parts to them.
    func didWrite(_ value: Value, for key: Key, version: UInt64, writtenAt: Date) async

    /// Called after a removal of `key` at `version` reached memory and the readers, outside the
    /// key's locks: a tier whose values are parts of other keys' (elements) takes it out of them.
    func didRemove(_ key: Key, version: UInt64) async

    /// Called after a removal of every value at `version` reached memory and the readers (see
    /// ``didRemove(_:version:)``).
    func didRemoveAll(version: UInt64) async

    /// Runs `write`: a write through this tier and its `didWrite`. A tier whose writes are
    /// shared counts it as in flight until it ends (see `ElementVersions`).
    func sharing<Result>(_ write: () async throws -> Result) async rethrows -> Result

    /// Called under memory's lock as `value`, read from this tier, goes into memory for `key`:
    /// a tier that tracks which keys hold which parts makes sure `key` is tracked (a change
    /// that found the key out of memory may have dropped it since the read).
    func willPromote(_ value: Value, for key: Key)
}

extension PersistentTier {
    func didWrite(_ value: Value, for key: Key, version: UInt64, writtenAt: Date) async {}

    func didRemove(_ key: Key, version: UInt64) async {}

    func didRemoveAll(version: UInt64) async {}

    func sharing<Result>(_ write: () async throws -> Result) async rethrows -> Result { try await write() }

    func willPromote(_ value: Value, for key: Key) {}

    func update(
        _ key: Key, now: Date, writtenAt: Date,
        _ transform: @escaping @Sendable (PersistedEntry<Value>?) throws -> Value?
    ) async throws -> TierUpdate<Value>? { nil }

    var agesRenewWithoutWrites: Bool { false }

    func startVersion(since seen: UInt64) async -> UInt64 { seen }

    /// A confirmation as every tier that keeps versions makes it: `confirmStored` updates the
    /// stored entry when it is still the one the fetch compared (`nil`: it is not, so `value` is
    /// written in full); a response that must not be stored removes it instead.
    func confirming(
        _ value: Value, for key: Key, _ confirmation: Confirmation, _ confirmStored: () async throws -> UInt64?
    ) async throws -> TierWrite<Value> {
        if confirmation.validators.freshness?.isNoStore == true { return TierWrite(version: try await remove(key)) }
        if let confirmed = try await confirmStored() { return TierWrite(version: confirmed) }
        // NB: `value` is the one the fetch compared, no newer than any part the file holds on
        // its own (an element saved since, whose edit may not have reached it yet): every
        // such part is kept, and only the parts the file lost are written.
        return try await write(
            value, for: key, writtenAt: confirmation.writtenAt, validators: confirmation.validators,
            keepingWritesAfter: 0)
    }
}

/// A value a ``PersistentTier`` holds, with its write time, version and validators.
struct PersistedEntry<Value: Sendable>: Sendable {
    let value: Value
    let writtenAt: Date
    let version: UInt64
    var validators: Validators = .none
    /// What could not be read of the stored value, which is served without it (elements of a
    /// list whose rows do not decode); a reader gets it as an error event.
    var problem: (any Error)? = nil
}

/// What a ``PersistentTier`` write stored.
struct TierWrite<Value: Sendable>: Sendable {
    /// The version it stored at; `nil` when the tier keeps no versions.
    let version: UInt64?
    /// The value as stored, when a later write of a part of it was kept; `nil`: as written.
    var kept: Value? = nil
    /// When ``kept`` was written and its validators, when the whole value written later was
    /// kept, or when the write left out elements removed since its fetch started (then with no
    /// validators to compare: the value stored is not the one they came with); `nil`: those of
    /// the write.
    var keptWhole: (writtenAt: Date, validators: Validators)? = nil
    /// Whether the value was removed after the fetch that wrote it started, and nothing wrote
    /// it since: the tier wrote nothing, and the removal stands.
    var removedSince = false
}
