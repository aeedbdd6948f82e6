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
        try await TierUpdate.naming({ store.failure($0, id, $1) }) {
            let updated = try await cache.updateElement(type: store.type, id: id.persistentKey, writtenAt: writtenAt) {
                [store] stored in
                let read = try stored.map {
                    try PersistedEntry<Element>(decoding: $0) { store.failure("decode", id, $0) }
                }
                guard let value = try transform(read) else { return (nil, TierUpdate<Element>.unchanged(read)) }
                // NB: stored under another id, it would be that element to every list holding this one.
                guard value.id == id else { throw store.failure("write", id, AnotherElement(id: value.id)) }
                return (try ElementStore<Element>.encoded(value), .writing(value, over: read))
            }
            // NB: an element with pending mutations shows them (see `DiskCache.shownValue`).
            return updated.result.stored(at: updated.written?.version) { _ in
                updated.written?.kept.flatMap { try? JSONDecoder().decode(Element.self, from: $0) }
            }
        }
    }
}
