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
        try await writeTransaction(operation: "remove from the cache in") {
            let select = try database.prepare(
                "SELECT 1 FROM content_loading_cache WHERE key = ? AND (\(Self.validVersion)) IS ?",
                operation: "remove from the cache in")
            try select.bind(key, at: 1)
            try select.bind(version, at: 2)
            guard try select.step() else { return }
            try select.reset()
            _ = try advanceVersion()
            try deleteEntry(key)
        }
    }

    /// Removes element `id` of `type` and the membership rows that hold it, while its row is
    /// still the one a read found (or has gone since); `.missing`: the membership rows, while it
    /// has no row.
    func removeUnusableElement(type: String, id: String, found: FoundElementRow) async throws {
        try await writeFault?("\(type)|\(id)")
        try await writeTransaction(operation: "remove from the cache in") {
            guard try elementRow(type: type, id: id, isStill: found) ?? true else { return }
            _ = try advanceVersion()
            try deleteElement(type: type, id: id)
        }
    }

    /// Whether the row of element `id` of `type` is still the one a read `found`; `nil` when
    /// there is none.
    func elementRow(type: String, id: String, isStill found: FoundElementRow) throws -> Bool? {
        let matches =
            switch found {
            case .version: "(\(Self.validVersion)) IS ?3"
            case .value: "value = ?3"
            case .missing: "0"
            }
        let select = try database.prepare(
            "SELECT \(matches) FROM content_loading_elements WHERE type = ?1 AND id = ?2",
            operation: "remove from the cache in")
        try select.bind(type, at: 1)
        try select.bind(id, at: 2)
        switch found {
        case .version(let version): try select.bind(version, at: 3)
        case .value(let data): try select.bind(data, at: 3)
        case .missing: break
        }
        guard try select.step() else { return nil }
        defer { try? select.reset() }
        return select.int(at: 0) != 0
    }
}
