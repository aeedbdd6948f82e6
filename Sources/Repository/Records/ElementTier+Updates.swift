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
        try await namingUpdateFailures({ store.failure($0, id, $1) }) {
            let row = try await store.updateRow(id, writtenAt: writtenAt, transform)
            // NB: an element with pending mutations shows them (see `DiskCache.shownValue`).
            return TierUpdate(read: row.read, value: row.written?.element, storedAt: row.written?.write.version) { _ in
                row.written?.write.kept.flatMap { try? JSONDecoder().decode(Element.self, from: $0) }
            }
        }
    }
}
