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
    /// promoted to memory). A value expired in memory leaves it, and the persistent tier
    /// decides (it may hold the value younger). A value expired there is removed and reads as
    /// a miss; so does a stored value that cannot be read or decoded, whose error comes back
    /// with the miss. A stored list served without the elements that do not decode comes back
    /// with the error naming them. `keepingExpired`: an expired value is a hit too, and stays
    /// (a 304 that answers its validators confirms it).
    func lookUp(_ key: Key, keepingExpired: Bool = false) async -> (hit: Hit?, failure: (any Error)?) {
        let date = now()
        if let entry = memory.entry(for: key) {
            guard keepingExpired || !isExpired(entry.writtenAt, at: date) else {
                // NB: the persistent tier decides: it may hold the value younger (a detail whose
                // list a 304 confirmed since memory read it).
                memory.remove(key, ifAt: entry.version)
                return await lookUpStored(key, at: date, keepingExpired: keepingExpired)
            }
            let hit = Hit(
                value: entry.value, writtenAt: entry.writtenAt, version: entry.version, origin: .memory,
                validators: entry.validators)
            // NB: stale in memory, it may be younger in the persistent tier (a detail whose list
            // a 304 confirmed since): a read there costs less than the request.
            if let tier, tier.agesRenewWithoutWrites, isOld(entry.writtenAt, for: entry.validators, at: date),
                let stored = await lookUpStored(key, at: date, keepingExpired: true).hit,
                stored.writtenAt > entry.writtenAt
            {
                return (stored, nil)
            }
            return (hit, nil)
        }
        return await lookUpStored(key, at: date, keepingExpired: keepingExpired)
    }

    /// The persistent tier's value for `key` (see ``lookUp(_:keepingExpired:)``), put in memory.
    private func lookUpStored(_ key: Key, at date: Date, keepingExpired: Bool) async -> (
        hit: Hit?, failure: (any Error)?
    ) {
        guard let tier else { return (nil, nil) }
        let seen = versionsSeen
        let stored: PersistedEntry<Value>?
        do {
            stored = try await tier.entry(for: key, now: date)
        } catch {
            return (nil, error)
        }
        guard let stored else { return (nil, nil) }
        noteVersion(stored.version)
        guard keepingExpired || !isExpired(stored.writtenAt, at: date) else {
            await discard(key, foundAt: stored.version)
            return (nil, nil)
        }
        // NB: promoted only while nothing was written since the read began. A removal or a
        // save of the key that landed meanwhile (and, for a save, was evicted since) would
        // otherwise be undone in memory by the older value read; a write elsewhere only costs
        // the next read a trip to the persistent tier. Checked under memory's lock, which
        // every write takes after its version is noted.
        memory.store(
            .init(
                value: stored.value, writtenAt: stored.writtenAt, version: stored.version, validators: stored.validators
            ),
            for: key,
            if: {
                guard versionsSeen <= max(seen, stored.version) else { return false }
                tier.willPromote(stored.value, for: key)
                return true
            })
        let hit = Hit(
            value: stored.value, writtenAt: stored.writtenAt, version: stored.version, origin: .disk,
            validators: stored.validators)
        return (hit, stored.problem)
    }

    /// Writes `value` for `key` to the persistent tier, then to memory, then to every reader
    /// (persist, then deliver), with the validators its fetch got (none for a save). Runs
    /// under the key's write lock. A fetch's write gives the persistent tier's version when the
    /// fetch started (`started`): a part of the value stored on its own (an element) that was
    /// written after it is kept, and is what memory and the readers get.
    ///
    /// - Returns: What the readers were given.
    /// - Throws: The persistent tier's error when its write fails: then nothing changed, in
    ///   memory or for the readers.
    @discardableResult
    func writeThrough(
        _ written: Value, for key: Key, in channel: KeyChannel<Value>, origin: CacheOrigin,
        validators: Validators = .none, keepingWritesAfter started: UInt64? = nil
    ) async throws -> KeyChannel<Value>.Delivery {
        let writtenAt = now()
        var write: TierWrite<Value>?
        let version = try await stored {
            write = try await $0.write(
                written, for: key, writtenAt: writtenAt, validators: validators, keepingWritesAfter: started)
            return write?.version
        }
        return deliver(
            written, as: write, version: version, writtenAt: writtenAt, validators: validators, for: key, in: channel,
            origin: origin)
    }

    /// Hands `written`, which the persistent tier stored as `write` says (`nil`: there is no
    /// such tier) at `version`, to memory, then to every reader of `key`.
    ///
    /// - Returns: What the readers were given.
    func deliver(
        _ written: Value, as write: TierWrite<Value>?, version: UInt64, writtenAt: Date, validators: Validators,
        for key: Key, in channel: KeyChannel<Value>, origin: CacheOrigin
    ) -> KeyChannel<Value>.Delivery {
        let value = write?.kept ?? written
        let (writtenAt, validators) = write?.keptWhole ?? (writtenAt, validators)
        // NB: writes win: a removal since the fetch started (another connection's) stands.
        guard write?.removedSince != true else {
            memory.remove(key)
            return publish(.removed(version: version), in: channel)
        }
        memory.store(.init(value: value, writtenAt: writtenAt, version: version, validators: validators), for: key)
        return publish(
            .value(value, origin: origin, writtenAt: writtenAt, version: version, validators: validators), in: channel)
    }

    /// Runs `write` on the persistent tier: the version it stored at, or (no tier, or one that
    /// keeps no versions) a version of this repository's.
    func stored(_ write: (any PersistentTier<Key, Value>) async throws -> UInt64?) async throws -> UInt64 {
        guard let tier, let version = try await write(tier) else { return nextVersion() }
        noteVersion(version)
        return version
    }

    /// Records a stored write of `key` and hands it to every reader. An edit of some of its
    /// elements, or a confirmation of the value read before, is not recorded as a write of the
    /// whole value.
    @discardableResult
    func publish(_ delivery: KeyChannel<Value>.Delivery, in channel: KeyChannel<Value>) -> KeyChannel<Value>.Delivery {
        switch delivery {
        case .value(let value, _, _, let version, _):
            if remembersLastWrite { channel.lastWritten.withLock { $0 = value } }
            channel.record(version)
        case .edited(let value, _, _, let version, _), .confirmed(let value, _, let version, _):
            if remembersLastWrite { channel.lastWritten.withLock { $0 = value } }
            channel.record(version, whole: false)
        case .removed(let version):
            channel.record(version)
        case .failure, .invalidated, .fetchEnded:
            break
        }
        channel.readers.send(delivery)
        return delivery
    }

    /// Records that a fetch found `current` unchanged (an equal value, or a 304 to the
    /// validators it `sent`, with `validators`): its age starts again on every tier (persistent
    /// first), and readers waiting for the fetch get it, marked unchanged (no new value is
    /// delivered to the others). When the persistent tier wrote it again, keeping parts of it
    /// saved since (elements), memory and the readers get it as stored.
    ///
    /// - Returns: What the readers were given.
    /// - Throws: The persistent tier's error: then nothing changed.
    func confirm(
        _ current: Hit, for key: Key, in channel: KeyChannel<Value>, sent: Validators, validators: Validators
    ) async throws -> KeyChannel<Value>.Delivery {
        var (value, writtenAt, validators) = (current.value, now(), validators)
        var removedSince = false
        let version = try await stored {
            let confirmation = Confirmation(
                expected: current.version, sent: sent, writtenAt: writtenAt, validators: validators)
            let write = try await $0.confirm(current.value, for: key, confirmation)
            if let kept = write.kept { value = kept }
            if let whole = write.keptWhole { (writtenAt, validators) = whole }
            removedSince = write.removedSince
            return write.version
        }
        // NB: writes win, as for a fetched value: a removal since the value was read (whose
        // change may still be on its way here) stands, and memory does not bring it back.
        guard !removedSince else {
            memory.remove(key)
            return publish(.removed(version: version), in: channel)
        }
        // NB: the value confirmed is the one read before, not a write of the whole value at the
        // confirmation's version: an element change older than the confirmation may still be
        // on its way to it (see `apply(_:holders:origin:)`).
        let whole = min(current.version, memory.entry(for: key)?.wholeVersion ?? current.version)
        memory.store(
            .init(value: value, writtenAt: writtenAt, version: version, validators: validators, wholeVersion: whole),
            for: key)
        return publish(.confirmed(value, writtenAt: writtenAt, version: version, validators: validators), in: channel)
    }

    /// `hit` as a read of `key` gives it at `date`: its age and whether it is stale.
    /// `refreshing`: the read has a fetch on the way; `unchanged`: a fetch found it unchanged.
    func cachedValue(of hit: Hit, for key: Key, refreshing: Bool, unchanged: Bool = false, at date: Date)
        -> CachedValue<Value>
    {
        CachedValue(
            value: hit.value, origin: hit.origin, age: age(of: hit.writtenAt, at: date),
            isStale: isStale(
                key, value: hit.value, writtenAt: hit.writtenAt, version: hit.version, validators: hit.validators,
                at: date),
            isRefreshing: refreshing,
            isUnchanged: unchanged)
    }

    /// The age of a value written at `writtenAt`, at `date`.
    /// 0 for a value written after `date` (the clock went back); at most about 290,000 years.
    @inlinable func age(of writtenAt: Date, at date: Date) -> Duration { .age(of: writtenAt, at: date) }

    /// Whether a value written at `writtenAt` has expired at `date` (never one written after
    /// `date`: it is stale, and revalidated).
    @inlinable func isExpired(_ writtenAt: Date, at date: Date) -> Bool {
        age(of: writtenAt, at: date) >= ages.expireAfter
    }

    /// Removes the expired value of `key` a read found at `version` from both tiers, unless it
    /// was written since: a save that landed after the read stays.
    private func discard(_ key: Key, foundAt version: UInt64) async {
        memory.remove(key, ifAt: version)
        try? await tier?.discardExpired(key, foundAt: version)
    }
}
