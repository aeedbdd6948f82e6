import ContentLoading
import Foundation

/// Removals of elements, remembered so that a fetch that started before one does not bring
/// the element back: a removal through the store (or a details repository over it) leaves a
/// row in `content_loading_element_removals` at its version, and a list or page a fetch
/// writes leaves out each element removed after the fetch started that nothing wrote since.
/// A removal of every element of a type is remembered under the id U+001F.
///
/// Only the newest ``removalsKept`` removals of each element type are kept: a fetch that runs
/// across more removals than that may bring back one of the oldest. The rows are ordered by
/// type and version, so a write finds the removals since its fetch started with one seek.
extension DiskCache {
    static let removalsSchema = """
        CREATE TABLE content_loading_element_removals (
            type TEXT NOT NULL,
            version INTEGER NOT NULL,
            id TEXT NOT NULL,
            PRIMARY KEY (type, version, id)
        ) WITHOUT ROWID
        """

    /// How many removals of each element type the file remembers.
    static let removalsKept = 1_000

    /// The elements of one type removed after a fetch started.
    struct RemovedElements {
        /// Whether every element of the type was removed since.
        var all = false
        /// The ids removed since.
        var ids: Set<String> = []

        static let none = RemovedElements()

        func contains(_ id: String) -> Bool { all || ids.contains(id) }
    }

    /// Remembers the removal of element `id` of `type` (`nil`: of every element of `type`) at
    /// `version`, inside the removal's transaction, and forgets the oldest removals of `type`
    /// past ``removalsKept``. (An element removed again is remembered twice until then: the
    /// newer removal is the one that counts.)
    func recordRemoval(type: String, id: String?, version: UInt64) throws {
        if id == nil {
            let forget = try database.prepare(
                "DELETE FROM content_loading_element_removals WHERE type = ?", operation: "remove from the cache in")
            try forget.bind(type, at: 1)
            try forget.step()
        }
        let insert = try database.prepare(
            """
            INSERT OR REPLACE INTO content_loading_element_removals (type, version, id)
                VALUES (?1, ?3, coalesce(?2, char(31)))
            """, operation: "remove from the cache in")
        try insert.bind(type, at: 1)
        try insert.bind(id, at: 2)
        try insert.bind(Int(version), at: 3)
        try insert.step()
        let prune = try database.prepare(
            """
            DELETE FROM content_loading_element_removals WHERE type = ?1 AND version < (
                SELECT version FROM content_loading_element_removals WHERE type = ?1
                    ORDER BY version DESC LIMIT 1 OFFSET ?2)
            """, operation: "remove from the cache in")
        try prune.bind(type, at: 1)
        try prune.bind(Self.removalsKept - 1, at: 2)
        try prune.step()
    }

    /// The elements of `type` removed after version `started`; inside a write's transaction.
    func removedElements(of type: String, after started: UInt64) throws -> RemovedElements {
        let select = try database.prepare(
            "SELECT id FROM content_loading_element_removals WHERE type = ? AND version > ?",
            operation: "write the cache in")
        try select.bind(type, at: 1)
        try select.bind(Int(clamping: started), at: 2)
        var removed = RemovedElements()
        while try select.step() {
            guard let id = select.text(at: 0) else { continue }
            if id == "\u{1F}" { removed.all = true } else { removed.ids.insert(id) }
        }
        return removed
    }

    /// Whether a fetch's write leaves element `id` of `type` out: `removed` (the removals
    /// since the fetch started) holds it, and nothing wrote it since (it has no row).
    func staysRemoved(_ id: String, of type: String, in removed: RemovedElements) throws -> Bool {
        try removed.contains(id) && storedElement(type: type, id: id) == nil
    }
}
