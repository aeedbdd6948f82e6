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
        try await namingUpdateFailures({ rows.failure($0, key, $1) }) {
            let updated = try await cache.updateList(
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
                guard let value = try transform(read) else { return (nil, (read: read, value: nil as [Element]?)) }
                // NB: held before the write, as `write` holds them.
                holders.hold(value.map(\.id), in: key)
                let encoded = try store.encoded(value)
                return ((try JSONEncoder().encode(encoded.map(\.id)), encoded), (read: read, value: value))
            }
            // NB: an element with pending mutations shows them (see `DiskCache.shownValue`).
            return TierUpdate(
                read: updated.result.read, value: updated.result.value, storedAt: updated.written?.version
            ) { value in
                updated.written.map { store.keeping($0.kept, removing: $0.removed, in: value) }
            }
        }
    }
}
