import ContentLoading
import Foundation

/// Records: elements stored once per (type, id), and lists stored as the ordered ids of their
/// elements (a row of `content_loading_cache` whose value is the ids) with one membership row
/// per element they hold. A list's row, its members and its elements are written in one
/// transaction; a read joins them.
///
/// A list row that goes (removed, evicted, discarded) takes its membership rows with it, and
/// an element no list holds any more goes with its last membership row (triggers), so element
/// rows are bounded by the lists that hold them; but an element written by id (a detail's
/// fetch or confirmation, a save through the store, a mutation performed: `held_by_id`) stays
/// until it is removed itself.
extension DiskCache {
    static let recordsSchema = """
        CREATE TABLE content_loading_elements (
            type TEXT NOT NULL,
            id TEXT NOT NULL,
            value BLOB NOT NULL,
            version INTEGER NOT NULL,
            written_at REAL NOT NULL,
            entity_tag TEXT,
            last_modified TEXT,
            max_age REAL,
            PRIMARY KEY (type, id)
        ) WITHOUT ROWID;
        CREATE TABLE content_loading_list_members (
            element_type TEXT NOT NULL,
            element_id TEXT NOT NULL,
            list_key TEXT NOT NULL,
            PRIMARY KEY (element_type, element_id, list_key)
        ) WITHOUT ROWID;
        CREATE INDEX content_loading_list_members_by_list ON content_loading_list_members (list_key);
        CREATE TRIGGER content_loading_list_gone AFTER DELETE ON content_loading_cache BEGIN
            DELETE FROM content_loading_list_members WHERE list_key = old.key;
        END;
        CREATE TRIGGER content_loading_element_orphaned AFTER DELETE ON content_loading_list_members
            WHEN NOT EXISTS (
                SELECT 1 FROM content_loading_list_members
                    WHERE element_type = old.element_type AND element_id = old.element_id)
        BEGIN
            DELETE FROM content_loading_elements WHERE type = old.element_type AND id = old.element_id;
        END
        """

    /// Migration 8: elements written by id are held by id (`held_by_id` 1), and stay when the
    /// lists that held them go. Elements stored before are not (as they were).
    static let heldByIDSchema = """
        ALTER TABLE content_loading_elements ADD COLUMN held_by_id INTEGER NOT NULL DEFAULT 0;
        DROP TRIGGER content_loading_element_orphaned;
        CREATE TRIGGER content_loading_element_orphaned AFTER DELETE ON content_loading_list_members
            WHEN NOT EXISTS (
                SELECT 1 FROM content_loading_list_members
                    WHERE element_type = old.element_type AND element_id = old.element_id)
        BEGIN
            DELETE FROM content_loading_elements
                WHERE type = old.element_type AND id = old.element_id AND held_by_id = 0;
        END
        """

    /// One element of a list, encoded.
    struct EncodedElement: Sendable {
        let id: String
        let data: Data
    }

    /// Writes the list `key` (its ordered `ids`, encoded) with its `elements`, at the file's
    /// next write version, in one transaction: each element's row (unless a write after
    /// `started` holds it: that one is kept), the list's membership rows, then the list's row.
    ///
    /// An element removed after `started` that nothing wrote since is left out: neither its
    /// row nor its membership row is written (see `DiskCache+Removals.swift`).
    ///
    /// - Returns: The version, the stored data of the elements that were kept, by id, and the
    ///   ids of the elements left out as removed.
    /// - Throws: ``OverLimit`` when the ids alone take more than ``byteLimit``; ``SQLiteError``
    ///   when the write fails (nothing changes).
    func writeList(
        _ ids: Data, elements: [EncodedElement], type: String, for key: String, writtenAt: Date,
        validators: Validators, keepingWritesAfter started: UInt64?
    ) async throws -> (version: UInt64, kept: [String: Data], removed: Set<String>) {
        try await writeFault?(key)
        let size = try listSize(of: ids, for: key)
        return try await writeTransaction(operation: "write the cache in") {
            try storeList(
                ids, size: size, elements: elements, type: type, for: key, writtenAt: writtenAt,
                validators: validators, keepingWritesAfter: started)
        }
    }

    /// What the list `key` with its encoded `ids` takes of ``byteLimit``.
    ///
    /// - Throws: ``OverLimit`` when that is more than ``byteLimit``.
    func listSize(of ids: Data, for key: String) throws -> Int {
        let size = key.utf8.count + ids.count
        guard size <= byteLimit else { throw OverLimit(bytes: size, limit: byteLimit) }
        return size
    }

    /// ``writeList(_:elements:type:for:writtenAt:validators:keepingWritesAfter:)``'s write,
    /// inside a write's transaction; `size` is what ``listSize(of:for:)`` measured.
    func storeList(
        _ ids: Data, size: Int, elements: [EncodedElement], type: String, for key: String, writtenAt: Date,
        validators: Validators, keepingWritesAfter started: UInt64?
    ) throws -> (version: UInt64, kept: [String: Data], removed: Set<String>) {
        let version = try advanceVersion()
        let written = try upsertElements(
            elements, type: type, version: version, writtenAt: writtenAt, keepingWritesAfter: started)
        try replaceMembers(of: key, type: type, with: Set(elements.map(\.id)).subtracting(written.removed))
        try insertRow(
            ids, for: key, size: size, version: version, writtenAt: writtenAt,
            validators: validators.stored(leavingOut: written.removed))
        return (version, written.kept, written.removed)
    }

    /// The list `key` (its entry holds the ids) and the stored data of its elements of
    /// `type`, by id, read together; `nil` when there is no list.
    func listEntry(for key: String, type: String, now: Date) throws -> (entry: Entry, elements: [String: Data?])? {
        try database.readTransaction(operation: "read the cache in") {
            guard let entry = try entry(for: key, now: now) else { return nil }
            let elements = try memberElements(key, type: type)
            return (entry, elements)
        }
    }
}
