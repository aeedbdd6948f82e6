import Foundation

/// A detail's copy of an element dropped: when the element is fetched by id with a response
/// the server said not to store (`Cache-Control: no-store`: shown, never written), and when the
/// copy a detail read has expired. The row is also the copy of every list and stored page that
/// holds the element, so it goes only when none does; held by one, it stays theirs, as it was.
extension DiskCache {
    /// Drops the copy of element `id` of `type` written by id, at the file's next write version:
    /// its row goes unless a list or stored page holds the element; then it stays, no longer
    /// held by id (it goes with the last list that holds it). No membership row changes and no
    /// removal is remembered: the lists keep the element, and a fetch in flight may store it.
    @discardableResult
    func dropElementWrittenByID(type: String, id: String) async throws -> UInt64 {
        try await writeFault?("\(type)|\(id)")
        return try await writeTransaction(operation: "remove from the cache in") {
            let version = try advanceVersion()
            try dropCopy(type: type, id: id)
            return version
        }
    }

    /// Drops the copy of element `id` of `type` written by id that a detail's read found at
    /// `version` (`nil`: one that does not validate) and that has expired, as
    /// ``dropElementWrittenByID(type:id:)`` does, while its row is still that one: the lists and
    /// pages that hold the element keep it (their own ages say when it goes; a list a 304
    /// confirmed does not write its elements' rows again, so theirs may be older), and a write
    /// since the read stays.
    func dropExpiredElement(type: String, id: String, foundAt version: Int?) async throws {
        try await writeFault?("\(type)|\(id)")
        try await writeTransaction(operation: "remove from the cache in") {
            guard try elementRow(type: type, id: id, isStill: .version(version)) == true else { return }
            _ = try advanceVersion()
            try dropCopy(type: type, id: id)
        }
    }

    /// Element `id` of `type` no longer held by id, and gone unless a list or stored page holds
    /// it; inside a write's transaction.
    private func dropCopy(type: String, id: String) throws {
        for sql in [
            "UPDATE content_loading_elements SET held_by_id = 0 WHERE type = ?1 AND id = ?2",
            """
            DELETE FROM content_loading_elements WHERE type = ?1 AND id = ?2 AND NOT EXISTS (
                SELECT 1 FROM content_loading_list_members WHERE element_type = ?1 AND element_id = ?2)
            """,
        ] {
            let statement = try database.prepare(sql, operation: "remove from the cache in")
            try statement.bind(type, at: 1)
            try statement.bind(id, at: 2)
            _ = try statement.step()
        }
    }
}
