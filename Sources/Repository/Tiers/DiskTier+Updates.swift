import ContentLoading
import Foundation

extension DiskTier {
    /// Reads the value of `key` and writes what `transform` makes of it in one transaction of
    /// the file (see ``PersistentTier/update(_:now:writtenAt:_:)``). A stored value that does
    /// not decode is an error, and nothing is written.
    func update(
        _ key: Key, now: Date, writtenAt: Date,
        _ transform: @escaping @Sendable (PersistedEntry<Value>?) throws -> Value?
    ) async throws -> TierUpdate<Value>? {
        try await namingUpdateFailures({ failure($0, key, $1) }) {
            let updated = try await cache.update(storageKey(key), now: now, writtenAt: writtenAt) { stored in
                let read = try stored.map { try PersistedEntry<Value>(decoding: $0) { failure("decode", key, $0) } }
                let value = try transform(read)
                return (try value.map { try JSONEncoder().encode($0) }, (read: read, value: value))
            }
            return TierUpdate(read: updated.result.read, value: updated.result.value, storedAt: updated.version)
        }
    }
}
