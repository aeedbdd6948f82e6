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
        do {
            let updated = try await cache.update(storageKey(key), now: now, writtenAt: writtenAt) { stored in
                let read = try stored.map { stored in
                    do {
                        return PersistedEntry(
                            value: try JSONDecoder().decode(Value.self, from: stored.data), writtenAt: stored.writtenAt,
                            version: stored.version, validators: stored.validators)
                    } catch {
                        throw failure("decode", key, error)
                    }
                }
                guard let value = try transform(read) else { return (nil, TierUpdate(read: read, written: nil)) }
                let data = try JSONEncoder().encode(value)
                return (data, TierUpdate(read: read, written: (value, TierWrite(version: nil))))
            }
            guard let version = updated.version, let value = updated.result.written?.value else {
                return updated.result
            }
            return TierUpdate(read: updated.result.read, written: (value, TierWrite(version: version)))
        } catch let error as UpdateTransformFailure {
            throw error
        } catch let error as CacheError {
            throw error
        } catch let corrupt as DiskCache.CorruptEntry {
            throw failure("read", key, corrupt)
        } catch {
            throw failure("write", key, error)
        }
    }
}
