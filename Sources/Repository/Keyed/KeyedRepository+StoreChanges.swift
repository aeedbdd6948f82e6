import Foundation

extension KeyedRepository {
    /// Brings the readers of `key` a value that someone else wrote to the persistent tier (an
    /// app writing its ``LocalStore`` directly): when `observed` is not this repository's own
    /// last write and the tier still holds it, it becomes a write of `key` like a save
    /// (origin ``CacheOrigin/local``, a new version, so a fetch that started before never
    /// overwrites it).
    ///
    /// Only a repository that compares values and remembers its last writes can tell; others
    /// ignore it.
    func adoptStoreChange(_ observed: Value, for key: Key) async {
        guard remembersLastWrite, let isUnchanged else { return }
        await withChannel(for: key) { channel in await adopt(observed, for: key, in: channel, comparing: isUnchanged) }
    }

    private func adopt(
        _ observed: Value, for key: Key, in channel: KeyChannel<Value>,
        comparing isUnchanged: @Sendable (Value, Value) -> Bool
    ) async {
        guard let tier else { return }
        if let own = channel.lastWritten.withLock({ $0 }), isUnchanged(own, observed) { return }
        await channel.writes.withLock { [self] in
            // NB: re-read under the write lock: a change heard late (a newer write came since)
            // is not the store's content any more, and must not be delivered after the newer one.
            guard let stored = try? await tier.entry(for: key, now: now()), isUnchanged(stored.value, observed),
                channel.lastWritten.withLock({ $0 }).map({ !isUnchanged($0, observed) }) ?? true
            else { return }
            let version = nextVersion()
            memory.store(.init(value: observed, writtenAt: stored.writtenAt, version: version), for: key)
            publish(.value(observed, origin: .local, writtenAt: stored.writtenAt, version: version), in: channel)
        }
    }
}
