import ContentLoading
import Foundation

extension ElementListTier {
    /// Reads the list `key` with its elements and writes what `transform` makes of it in one
    /// transaction of the file (see ``PersistentTier/update(_:now:writtenAt:_:)``), as a save
    /// writes a list: so an element saved since memory read the list (through the store,
    /// another repository or another process) is given to `transform`, not written over. A
    /// list that cannot be read whole is an error, and nothing is written.
    func update(
        _ key: Key, now: Date, writtenAt: Date,
        _ transform: @escaping @Sendable (PersistedEntry<[Element]>?) throws -> [Element]?
    ) async throws -> TierUpdate<[Element]>? {
        let updated:
            (written: (version: UInt64, kept: [String: Data], removed: Set<String>)?, result: TierUpdate<[Element]>)
        do {
            updated = try await cache.updateList(
                rows.storageKey(key), type: store.type, now: now, writtenAt: writtenAt
            ) { [store, rows, holders] stored, elements in
                let read = try stored.map { stored in
                    let (list, problem) = try store.decoded(ids: stored.data, rows: elements)
                    // NB: no update is made on a part of the list.
                    if let problem { throw rows.failure(problem.operation, key, problem) }
                    return PersistedEntry(
                        value: list, writtenAt: stored.writtenAt, version: stored.version, validators: stored.validators
                    )
                }
                guard let value = try transform(read) else { return (nil, TierUpdate(read: read, written: nil)) }
                // NB: held before the write, as `write` holds them.
                holders.hold(value.map(\.id), in: key)
                let encoded = try store.encoded(value)
                return (
                    (try JSONEncoder().encode(encoded.map(\.id)), encoded),
                    TierUpdate(read: read, written: (value, TierWrite(version: nil)))
                )
            }
        } catch let error as UpdateTransformFailure {
            throw error
        } catch let error as CacheError {
            throw error
        } catch {
            throw rows.failure("write", key, error)
        }
        guard let written = updated.written, let value = updated.result.written?.value else { return updated.result }
        // NB: an element with pending mutations shows them (see `DiskCache.shownValue`).
        return TierUpdate(
            read: updated.result.read,
            written: (
                value,
                TierWrite(
                    version: written.version, kept: store.keeping(written.kept, removing: written.removed, in: value))
            ))
    }
}
