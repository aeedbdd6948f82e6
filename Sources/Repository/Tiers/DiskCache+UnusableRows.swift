import Foundation

/// Rows a read found and could not use (one that does not validate or decode, an element a list
/// holds whose row is missing), removed so the next read is a plain miss, or a list's read goes
/// on without them.
///
/// A read decodes what it found off the actor, so a write (a save, a fetch, another connection's)
/// can land between the read and the removal. Each removal takes the row only while it is still
/// the one the read found: a row written since stays. (Removed by key, a save that landed there
/// was deleted with the row it replaced.)
extension DiskCache {
    /// An element row as a read found it.
    enum FoundElementRow: Sendable {
        /// A row at this version; `nil`: a version that does not validate (every write stores a
        /// valid one, so a row written since never matches).
        case version(Int?)
        /// A row holding these bytes: a list's read joins its elements without their versions.
        case value(Data)
        /// No row, for an id a list holds.
        case missing
    }

    /// Removes the entry for `key` while it is still the row a read found at `version` (`nil`:
    /// one whose version does not validate).
    func removeUnusable(_ key: String, foundAt version: Int?) async throws {
        try await writeFault?(key)
        try keepingTotalOnFailure {
            try database.transaction(operation: "remove from the cache in") {
                let size = try database.prepare(
                    "SELECT \(Self.rowBytes) FROM content_loading_cache WHERE key = ? AND (\(Self.validVersion)) IS ?",
                    operation: "remove from the cache in")
                try size.bind(key, at: 1)
                try size.bind(version, at: 2)
                guard try size.step() else { return }
                let removed = size.int(at: 0)
                try size.reset()
                _ = try advanceVersion()
                let delete = try database.prepare(
                    "DELETE FROM content_loading_cache WHERE key = ?", operation: "remove from the cache in")
                try delete.bind(key, at: 1)
                try delete.step()
                totalBytes -= removed
                pendingReads[key] = nil
            }
        }
    }

    /// Removes element `id` of `type` and the membership rows that hold it, while its row is
    /// still the one a read found; `.missing`: the membership rows, while it has no row.
    func removeUnusableElement(type: String, id: String, found: FoundElementRow) async throws {
        try await writeFault?("\(type)|\(id)")
        try database.transaction(operation: "remove from the cache in") {
            let row: String
            switch found {
            case .version: row = "(\(Self.validVersion)) IS ?3"
            case .value: row = "value = ?3"
            case .missing: row = "0"
            }
            // NB: the element's row first: its membership rows going first would take it with
            // them (the orphan trigger), whatever it holds now.
            let deleteRow = try database.prepare(
                "DELETE FROM content_loading_elements WHERE type = ?1 AND id = ?2 AND \(row)",
                operation: "remove from the cache in")
            try deleteRow.bind(type, at: 1)
            try deleteRow.bind(id, at: 2)
            switch found {
            case .version(let version): try deleteRow.bind(version, at: 3)
            case .value(let data): try deleteRow.bind(data, at: 3)
            case .missing: break
            }
            _ = try deleteRow.step()
            guard try changedRows() > 0 || !(try elementRowExists(type: type, id: id)) else { return }
            _ = try advanceVersion()
            let deleteMembers = try database.prepare(
                "DELETE FROM content_loading_list_members WHERE element_type = ? AND element_id = ?",
                operation: "remove from the cache in")
            try deleteMembers.bind(type, at: 1)
            try deleteMembers.bind(id, at: 2)
            _ = try deleteMembers.step()
        }
    }

    /// Whether the file holds a row for element `id` of `type`.
    private func elementRowExists(type: String, id: String) throws -> Bool {
        let select = try database.prepare(
            "SELECT 1 FROM content_loading_elements WHERE type = ? AND id = ?", operation: "remove from the cache in")
        try select.bind(type, at: 1)
        try select.bind(id, at: 2)
        return try select.step()
    }
}
