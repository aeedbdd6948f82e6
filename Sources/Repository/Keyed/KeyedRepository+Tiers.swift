import ContentLoading
import Foundation

extension KeyedRepository {
    /// A value found in a tier.
    struct Hit: Sendable {
        let value: Value
        let writtenAt: Date
        let version: UInt64
        let origin: CacheOrigin
        var validators: Validators = .none
    }

    /// What the tiers hold for `key`: memory first, then the persistent tier (a hit there is
    /// promoted to memory). An expired value is removed and reads as a miss; so does a stored
    /// value that cannot be read or decoded, whose error comes back with the miss.
    func lookUp(_ key: Key) async -> (hit: Hit?, failure: (any Error)?) {
        let date = now()
        if let entry = memory.entry(for: key) {
            guard !isExpired(entry.writtenAt, at: date) else {
                await discard(key)
                return (nil, nil)
            }
            let hit = Hit(
                value: entry.value, writtenAt: entry.writtenAt, version: entry.version, origin: .memory,
                validators: entry.validators)
            return (hit, nil)
        }
        guard let tier else { return (nil, nil) }
        let stored: PersistedEntry<Value>?
        do {
            stored = try await tier.entry(for: key, now: date)
        } catch {
            return (nil, error)
        }
        guard let stored else { return (nil, nil) }
        guard !isExpired(stored.writtenAt, at: date) else {
            await discard(key)
            return (nil, nil)
        }
        memory.store(
            .init(
                value: stored.value, writtenAt: stored.writtenAt, version: stored.version, validators: stored.validators
            ),
            for: key)
        let hit = Hit(
            value: stored.value, writtenAt: stored.writtenAt, version: stored.version, origin: .disk,
            validators: stored.validators)
        return (hit, nil)
    }

    /// Writes `value` through the tiers at `version`, with the validators its fetch got (none
    /// for a save), and delivers it to every reader of `key`.
    ///
    /// - Throws: The persistent tier's error when its write fails (also delivered to the
    ///   readers); memory and the readers have the value all the same.
    func writeThrough(
        _ value: Value, for key: Key, in channel: KeyChannel<Value>, version: UInt64, origin: CacheOrigin,
        validators: Validators = .none
    ) async throws {
        let writtenAt = now()
        memory.store(.init(value: value, writtenAt: writtenAt, version: version, validators: validators), for: key)
        try await deliver(
            value, for: key, in: channel, version: version, writtenAt: writtenAt, origin: origin, validators: validators
        )
    }

    /// Delivers `value`, already in the memory tier at `version`, to every reader of `key`
    /// and writes it to the persistent tier.
    ///
    /// - Throws: The persistent tier's error when its write fails (also delivered to the readers).
    func deliver(
        _ value: Value, for key: Key, in channel: KeyChannel<Value>, version: UInt64, writtenAt: Date,
        origin: CacheOrigin, validators: Validators = .none
    ) async throws {
        if remembersLastWrite { channel.lastWritten.withLock { $0 = value } }
        channel.readers.send(.value(value, origin: origin, writtenAt: writtenAt, version: version))
        guard let tier else { return }
        do {
            try await tier.write(value, for: key, version: version, writtenAt: writtenAt, validators: validators)
        } catch {
            channel.readers.send(.failure(error))
            throw error
        }
    }

    /// Records that a fetch found `current` unchanged (an equal value, or a 304 with
    /// `validators`): its age starts again on every tier, and readers waiting for the fetch get
    /// it, marked unchanged (no new value is written or delivered to the others).
    func confirm(
        _ current: Hit, for key: Key, in channel: KeyChannel<Value>, version: UInt64, validators: Validators
    ) async throws {
        let writtenAt = now()
        memory.store(
            .init(value: current.value, writtenAt: writtenAt, version: version, validators: validators), for: key)
        if remembersLastWrite { channel.lastWritten.withLock { $0 = current.value } }
        channel.readers.send(.confirmed(current.value, writtenAt: writtenAt, version: version))
        guard let tier else { return }
        do {
            try await tier.confirm(key, writtenAt: writtenAt, version: version, validators: validators)
        } catch {
            channel.readers.send(.failure(error))
            throw error
        }
    }

    /// `hit` as a read of `key` gives it at `date`: its age and whether it is stale.
    /// `refreshing`: the read has a fetch on the way; `unchanged`: a fetch found it unchanged.
    func cachedValue(of hit: Hit, for key: Key, refreshing: Bool, unchanged: Bool = false, at date: Date)
        -> CachedValue<Value>
    {
        CachedValue(
            value: hit.value, origin: hit.origin, age: age(of: hit.writtenAt, at: date),
            isStale: isStale(key, writtenAt: hit.writtenAt, version: hit.version, at: date), isRefreshing: refreshing,
            isUnchanged: unchanged)
    }

    /// The age of a value written at `writtenAt`, at `date`.
    @inlinable func age(of writtenAt: Date, at date: Date) -> Duration {
        .milliseconds(Int64((max(0, date.timeIntervalSince(writtenAt)) * 1_000).rounded()))
    }

    /// Whether a value written at `writtenAt` has expired at `date`.
    @inlinable func isExpired(_ writtenAt: Date, at date: Date) -> Bool {
        age(of: writtenAt, at: date) >= ages.expireAfter
    }

    /// Removes `key` from both tiers (an expired value).
    private func discard(_ key: Key) async {
        memory.remove(key)
        try? await tier?.remove(key)
    }
}
