import ContentLoading
import Foundation

/// The rows behind records: element rows and list membership rows, read and written inside
/// the transactions of `DiskCache+Records.swift`.
extension DiskCache {
    /// An element row as stored, its version and write time not yet validated.
    struct StoredElement {
        let data: Data
        let version: Int?
        let shownVersion: String?
        let writtenAt: Double?
        let shownWrittenAt: String?
        let validators: Validators
    }

    /// The statement that writes an element row unless a write after a version holds another
    /// value: parameters type, id, value, version, written_at, entity_tag, last_modified,
    /// max_age, that version (NULL: write whatever holds it) and whether it is written by id
    /// (1: it stays held by id; 0: as it was); it returns a row when it wrote.
    ///
    /// A row that holds the same bytes is written whatever its version: the value is the one
    /// the write brings, so the write's validators (a detail's entity tag, which the next
    /// mutation sends as `If-Match`) and age are its own. Kept, it would keep the validators
    /// of an older copy, or none, and an edit of it would be sent without a precondition.
    func elementUpsert() throws -> SQLiteStatement {
        try database.prepare(
            """
            INSERT INTO content_loading_elements
                (type, id, value, version, written_at, entity_tag, last_modified, max_age, held_by_id)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?10)
                ON CONFLICT (type, id) DO UPDATE SET
                    held_by_id = max(content_loading_elements.held_by_id, excluded.held_by_id),
                    value = excluded.value, version = excluded.version, written_at = excluded.written_at,
                    entity_tag = CASE WHEN excluded.entity_tag IS NULL AND excluded.last_modified IS NULL
                        AND content_loading_elements.value = excluded.value
                        THEN content_loading_elements.entity_tag ELSE excluded.entity_tag END,
                    last_modified = CASE WHEN excluded.entity_tag IS NULL AND excluded.last_modified IS NULL
                        AND content_loading_elements.value = excluded.value
                        THEN content_loading_elements.last_modified ELSE excluded.last_modified END,
                    max_age = excluded.max_age
                WHERE ?9 IS NULL OR content_loading_elements.value = excluded.value OR NOT (
                    typeof(content_loading_elements.version) = 'integer' AND content_loading_elements.version > ?9)
                RETURNING 1
            """, operation: "write the cache in")
    }

    /// Writes one element row with `upsert` (see ``elementUpsert()``).
    ///
    /// - Returns: Whether it was written (`false`: a write after `started` was kept).
    func upsertElement(
        _ data: Data, type: String, id: String, version: UInt64, writtenAt: Date, validators: Validators,
        keepingWritesAfter started: UInt64?, heldByID: Bool, using upsert: SQLiteStatement
    ) throws -> Bool {
        try upsert.bind(type, at: 1)
        try upsert.bind(id, at: 2)
        try upsert.bind(data, at: 3)
        try upsert.bind(Int(version), at: 4)
        try upsert.bind(Self.storedTime(writtenAt), at: 5)
        try Self.bind(validators, to: upsert, at: 6)
        try upsert.bind(started.map { Int(clamping: $0) }, at: 9)
        try upsert.bind(heldByID ? 1 : 0, at: 10)
        let written = try upsert.step()
        // NB: RETURNING yields its row before the statement has run to its end.
        while try upsert.step() {}
        try upsert.reset()
        return written
    }

    /// Writes the rows of `elements` of `type` at `version`, inside a write's transaction,
    /// except those a write after `started` holds, and those removed after `started` that
    /// nothing wrote since (see `DiskCache+Removals.swift`). An element with pending mutations
    /// (see `DiskCache+Outbox.swift`) keeps the value fetched as its server value, and its row
    /// shows the mutations over it.
    ///
    /// - Returns: The stored data of the elements that were kept or show pending mutations, by
    ///   id: what readers get in place of the value fetched; and the ids of those left out as
    ///   removed.
    func upsertElements(
        _ elements: [EncodedElement], type: String, version: UInt64, writtenAt: Date,
        keepingWritesAfter started: UInt64?
    ) throws -> (kept: [String: Data], removed: Set<String>) {
        let upsert = try elementUpsert()
        let removedSince = try started.map { try removedElements(of: type, after: $0) } ?? .none
        var kept: [String: Data] = [:]
        var removed = Set<String>()
        for element in elements {
            if try staysRemoved(element.id, of: type, in: removedSince) {
                removed.insert(element.id)
                continue
            }
            // NB: an element with pending mutations shows them over the value fetched.
            let shown = try shownValue(of: element.data, type: type, id: element.id, keepingWritesAfter: started)
            let written = try upsertElement(
                shown ?? element.data, type: type, id: element.id, version: version, writtenAt: writtenAt,
                validators: .none, keepingWritesAfter: started, heldByID: false, using: upsert)
            if !written {
                kept[element.id] = try storedElement(type: type, id: element.id)?.data
            } else if let shown {
                try writeServerValue(element.data, entityTag: nil, type: type, id: element.id)
                kept[element.id] = shown
            }
        }
        return (kept, removed)
    }

    /// The row of element `id` of `type`; `nil` when there is none.
    func storedElement(type: String, id: String) throws -> StoredElement? {
        let select = try database.prepare(
            """
            SELECT value, \(Self.validVersion), version, \(Self.validWrittenAt), written_at,
                    entity_tag, last_modified, max_age
                FROM content_loading_elements WHERE type = ? AND id = ?
            """, operation: "read the cache in")
        try select.bind(type, at: 1)
        try select.bind(id, at: 2)
        guard try select.step() else { return nil }
        guard let data = select.data(at: 0) else {
            throw CorruptEntry(reason: "its value is missing", version: select.optionalInt(at: 1))
        }
        return StoredElement(
            data: data, version: select.optionalInt(at: 1), shownVersion: select.text(at: 2),
            writtenAt: select.optionalDouble(at: 3), shownWrittenAt: select.text(at: 4),
            validators: Validators(
                entityTag: select.text(at: 5), lastModified: select.text(at: 6),
                freshness: Self.freshness(maxAge: select, at: 7)))
    }

    /// Makes `ids` the elements of `type` the list `key` holds: the membership rows it no
    /// longer needs go (and an element no list holds any more goes with them), the new ones
    /// are added.
    func replaceMembers(of key: String, type: String, with ids: Set<String>) throws {
        let select = try database.prepare(
            "SELECT element_id FROM content_loading_list_members WHERE list_key = ? AND element_type = ?",
            operation: "write the cache in")
        try select.bind(key, at: 1)
        try select.bind(type, at: 2)
        var held = Set<String>()
        while try select.step() { if let id = select.text(at: 0) { held.insert(id) } }
        let delete = try database.prepare(
            "DELETE FROM content_loading_list_members WHERE element_type = ? AND element_id = ? AND list_key = ?",
            operation: "write the cache in")
        for id in held.subtracting(ids) { try step(delete, type, id, key) }
        let insert = try database.prepare(
            "INSERT OR IGNORE INTO content_loading_list_members (element_type, element_id, list_key) VALUES (?, ?, ?)",
            operation: "write the cache in")
        for id in ids.subtracting(held) { try step(insert, type, id, key) }
    }

    /// Holds element `id` of `type` by id, inside a write's transaction: it stays when the lists
    /// that held it go, until it is removed itself (see `DiskCache+Records.swift`).
    func holdByID(type: String, id: String) throws {
        let update = try database.prepare(
            "UPDATE content_loading_elements SET held_by_id = 1 WHERE type = ? AND id = ? AND held_by_id = 0",
            operation: "write the cache in")
        try update.bind(type, at: 1)
        try update.bind(id, at: 2)
        try update.step()
    }

    /// The stored data of the elements of `type` held under `membersKey`, by id: `nil` for an
    /// element held with no row (the file lost it).
    func memberElements(_ membersKey: String, type: String) throws -> [String: Data?] {
        let select = try database.prepare(
            """
            SELECT m.element_id, e.value FROM content_loading_list_members m
                LEFT JOIN content_loading_elements e ON e.type = m.element_type AND e.id = m.element_id
                WHERE m.list_key = ? AND m.element_type = ?
            """, operation: "read the cache in")
        try select.bind(membersKey, at: 1)
        try select.bind(type, at: 2)
        var elements: [String: Data?] = [:]
        while try select.step() {
            guard let id = select.text(at: 0) else { continue }
            elements[id] = .some(select.data(at: 1))
        }
        return elements
    }

    /// Runs `statement` once with three text parameters, then resets it.
    private func step(_ statement: SQLiteStatement, _ first: String, _ second: String, _ third: String) throws {
        try statement.bind(first, at: 1)
        try statement.bind(second, at: 2)
        try statement.bind(third, at: 3)
        _ = try statement.step()
        try statement.reset()
    }
}
