import ContentLoading
import Foundation

/// The server values kept apart: for each element with pending mutations, its server value and
/// entity tag (`content_loading_element_bases`), and the overlay that shows the mutations over
/// it in the element's row (see `DiskCache+Outbox.swift`).
extension DiskCache {
    /// An element's server value and the entity tag it came with (`value` `nil`: not stored).
    struct ElementBase: Sendable, Equatable {
        let value: Data?
        let entityTag: String?
    }

    /// The value readers see of an element: `server` (its server value) with `mutations`
    /// applied, in order. Throws when a mutation does not decode.
    typealias ElementOverlay = @Sendable (_ server: Data, _ mutations: [StoredMutation]) throws -> Data

    /// Makes `overlay` compute the shown value of the elements of `type` with pending mutations.
    nonisolated func setOverlay(_ overlay: @escaping ElementOverlay, for type: String) {
        overlaySlots.withLock { $0[type] = overlay }
    }

    /// The server value of element `id` of `type` kept apart while it has pending mutations;
    /// `nil` when it has none.
    func base(type: String, id: String) throws -> ElementBase? {
        let select = try database.prepare(
            "SELECT value, entity_tag FROM content_loading_element_bases WHERE type = ? AND id = ?",
            operation: "read the outbox in")
        try select.bind(type, at: 1)
        try select.bind(id, at: 2)
        guard try select.step() else { return nil }
        return ElementBase(value: select.data(at: 0), entityTag: select.text(at: 1))
    }

    /// The kept server values of elements `ids` of `type` (see ``base(type:id:)``), in order.
    func bases(type: String, ids: [String]) throws -> [ElementBase?] {
        try ids.map { try base(type: type, id: $0) }
    }

    /// Inside a write of element rows: the value to store in the row of element `id` of
    /// `type` when `data` is its server value and it has pending mutations (the one readers
    /// see: `data` with them applied, less one whose last request sent `data` (see
    /// `DiskCache+SentRequests.swift`); when no overlay is set for the type yet, the row as it
    /// is); `nil` when it has none, so `data` is its row. Then `writeBase` keeps `data` as its server value.
    func shownValue(ofServerValue data: Data, type: String, id: String) throws -> Data? {
        try syncPendingElements()
        guard !pendingElements.isEmpty, pendingElements.contains(Self.pendingKey(type, id)) else { return nil }
        guard let overlay = overlay(for: type) else { return try storedElement(type: type, id: id)?.data ?? data }
        let showing = mutationsToShow(over: data, try pendingMutations(type: type, id: id))
        return showing.isEmpty ? data : try overlay(data, Array(showing))
    }

    /// Inside a write of element rows: ``shownValue(ofServerValue:type:id:)`` for a value
    /// `started` (`nil`) says an app saved. Saved, the value its row shows already (a list
    /// read and saved back, an update that left the element as it was) is no new server value:
    /// `nil`, so the row stays as it is and the kept server value too. (Taken as one, its
    /// pending mutations would be shown over it a second time: an appended suffix twice.)
    func shownValue(of data: Data, type: String, id: String, keepingWritesAfter started: UInt64?) throws -> Data? {
        guard let shown = try shownValue(ofServerValue: data, type: type, id: id) else { return nil }
        guard started == nil, try storedElement(type: type, id: id)?.data == data else { return shown }
        return nil
    }

    /// The elements with a kept server value, as `pendingKey`s, read when the file is opened.
    static func pendingElements(in database: SQLiteDatabase) throws -> Set<String> {
        let select = try database.prepare(
            "SELECT type, id FROM content_loading_element_bases", operation: "read the outbox in")
        var keys = Set<String>()
        while try select.step() { keys.insert(pendingKey(select.text(at: 0) ?? "", select.text(at: 1) ?? "")) }
        return keys
    }

    static func pendingKey(_ type: String, _ id: String) -> String { "\(type)\u{1F}\(id)" }

    /// Reads ``pendingElements`` from the file again when another connection to it (another
    /// process's, another `DiskCache`'s) has committed since it was read (its outbox may have
    /// made an element pending, or confirmed one), or a transaction of this one was rolled back
    /// (what it added to the set or took out of it did not happen): see ``FileMark``. Inside a
    /// write's transaction, no other connection changes them until it ends.
    func syncPendingElements() throws {
        let mark = try fileMark()
        guard mark != pendingElementsRead else { return }
        pendingElements = try Self.pendingElements(in: database)
        pendingElementsRead = mark
    }

    /// The kept server value of element `id` of `type`; the first time, its row as it is now
    /// (kept apart from here on).
    func keptBase(type: String, id: String) throws -> ElementBase {
        if let base = try base(type: type, id: id) { return base }
        let row = try storedElement(type: type, id: id)
        let base = ElementBase(value: row?.data, entityTag: row?.validators.entityTag)
        try writeBase(base, type: type, id: id)
        return base
    }

    /// Keeps `data`, fetched or saved, as the server value of element `id` of `type` (which has
    /// pending mutations), with `entityTag`; with none, the entity tag held stays when the value
    /// is the one it was held for (the same representation), and goes otherwise.
    func writeServerValue(_ data: Data, entityTag: String?, type: String, id: String) throws {
        let held = try base(type: type, id: id)
        let tag = entityTag ?? (held?.value == data ? held?.entityTag : nil)
        try writeBase(ElementBase(value: data, entityTag: tag), type: type, id: id)
    }

    /// Keeps `base` as the server value of element `id` of `type` (which has pending mutations).
    func writeBase(_ base: ElementBase, type: String, id: String) throws {
        let upsert = try database.prepare(
            "INSERT OR REPLACE INTO content_loading_element_bases (type, id, value, entity_tag) VALUES (?, ?, ?, ?)",
            operation: "write the outbox in")
        try upsert.bind(type, at: 1)
        try upsert.bind(id, at: 2)
        try upsert.bind(base.value, at: 3)
        try upsert.bind(base.entityTag, at: 4)
        try upsert.step()
        pendingElements.insert(Self.pendingKey(type, id))
    }

    /// Writes the row of element `id` of `type` as readers should see it: `base` with the
    /// pending mutations applied (less one whose last request sent `base`); with none
    /// pending, `base` itself, and the kept base goes.
    /// Returns the row written (`nil`: the element is not stored).
    func showPending(type: String, id: String, base: ElementBase, version: UInt64, writtenAt: Date) throws
        -> Data?
    {
        let pending = try pendingMutations(type: type, id: id)
        if pending.isEmpty {
            let delete = try database.prepare(
                "DELETE FROM content_loading_element_bases WHERE type = ? AND id = ?", operation: "write the outbox in")
            try delete.bind(type, at: 1)
            try delete.bind(id, at: 2)
            try delete.step()
            pendingElements.remove(Self.pendingKey(type, id))
        }
        guard let server = base.value, let stored = try storedElement(type: type, id: id) else { return nil }
        let showing = mutationsToShow(over: server, pending)
        let shown =
            try showing.isEmpty ? server : (overlay(for: type).map { try $0(server, Array(showing)) } ?? stored.data)
        let validators = Validators(entityTag: base.entityTag, lastModified: nil, freshness: nil)
        _ = try upsertElement(
            shown, type: type, id: id, version: version, writtenAt: writtenAt, validators: validators,
            keepingWritesAfter: nil, heldByID: true, using: try elementUpsert())
        return shown
    }
}
