import ContentLoading
import Foundation

extension ElementTier {
    /// Reads element `id` and writes what `transform` makes of it in one transaction of the
    /// file (see ``PersistentTier/update(_:now:writtenAt:_:)``), as a save writes an element:
    /// so a save of it made since memory read it (through the store, a list holding it,
    /// another repository or another process) is given to `transform`, not written over. A
    /// stored element that does not decode is an error, and nothing is written.
    func update(
        _ id: Element.ID, now: Date, writtenAt: Date,
        _ transform: @escaping @Sendable (PersistedEntry<Element>?) throws -> Element?
    ) async throws -> TierUpdate<Element>? {
        let updated: (written: DiskCache.ElementWrite?, result: TierUpdate<Element>)
        do {
            updated = try await cache.updateElement(type: store.type, id: id.persistentKey, writtenAt: writtenAt) {
                [store] stored in
                let read = try stored.map { stored in
                    do {
                        return PersistedEntry(
                            value: try JSONDecoder().decode(Element.self, from: stored.data),
                            writtenAt: stored.writtenAt, version: stored.version, validators: stored.validators)
                    } catch {
                        throw store.failure("decode", id, error)
                    }
                }
                guard let value = try transform(read) else { return (nil, TierUpdate(read: read, written: nil)) }
                // NB: stored under another id, it would be that element to every list holding this one.
                guard value.id == id else { throw store.failure("write", id, AnotherElement(id: value.id)) }
                return (
                    try ElementStore<Element>.encoded(value),
                    TierUpdate(read: read, written: (value, TierWrite(version: nil)))
                )
            }
        } catch let error as UpdateTransformFailure {
            throw error
        } catch let error as CacheError {
            throw error
        } catch {
            throw store.failure("write", id, error)
        }
        guard let written = updated.written, let value = updated.result.written?.value else { return updated.result }
        // NB: an element with pending mutations shows them (see `DiskCache.shownValue`).
        return TierUpdate(
            read: updated.result.read,
            written: (
                value,
                TierWrite(
                    version: written.version,
                    kept: written.kept.flatMap { try? JSONDecoder().decode(Element.self, from: $0) })
            ))
    }
}
