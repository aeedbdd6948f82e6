import Foundation

/// Stored pages that cannot be served as stored: a page row that does not read back (a file
/// changed behind the kit's back), and a page served without some of its elements. Neither
/// may keep its list short, or stuck, once the server can be asked again.
extension DiskCache {
    /// Whether a stored page was served without some of its elements (1), so the next load of it
    /// asks the source.
    static let incompletePagesSchema = """
        ALTER TABLE content_loading_list_pages ADD COLUMN incomplete INTEGER NOT NULL DEFAULT 0
        """

    /// Removes the stored page of list `listKey` that `request` (an encoded cursor; `nil`: the
    /// initial page) loaded, whose row does not read, with the stored pages beyond it away from
    /// the initial page (every other page of the list, for the initial page): only its cursors
    /// reached them. Their elements stay while other lists hold them.
    ///
    /// Only while the page's row is still the one the read found at `version` (`nil`: one whose
    /// version does not validate): a page written since the read stays, with those beyond it.
    func removeUnreadablePage(of listKey: String, request: String?, foundAt version: Int?) async throws {
        try await writeTransaction(operation: "remove from the cache in") {
            let select = try database.prepare(
                """
                SELECT position FROM content_loading_list_pages WHERE list_key = ? AND request IS ?
                    AND (\(Self.validVersion)) IS ?
                    ORDER BY position LIMIT 1
                """, operation: "remove from the cache in")
            try select.bind(listKey, at: 1)
            try select.bind(request, at: 2)
            try select.bind(version, at: 3)
            guard try select.step() else { return }
            let position = select.int(at: 0)
            try select.reset()
            let delete = try database.prepare(
                """
                DELETE FROM content_loading_list_pages WHERE list_key = ?1
                    AND (position = ?2 OR (?2 >= 0 AND position > ?2) OR (?2 <= 0 AND position < ?2))
                """, operation: "remove from the cache in")
            try delete.bind(listKey, at: 1)
            try delete.bind(position, at: 2)
            _ = try delete.step()
        }
    }

    /// Marks the stored page of list `listKey` that `request` loaded, which was served without
    /// some of its elements (their bad rows removed since): the next load of it asks the source
    /// (an initial page, without its validators), rather than serving it short, or being told
    /// it has not changed, for ever. A write of the page clears the mark; so only the row the
    /// read found at `version` is marked, not one written since (which came whole).
    func markIncomplete(pageOf listKey: String, request: String?, foundAt version: Int?) async throws {
        try await writeTransaction(operation: "write the cache in") {
            let update = try database.prepare(
                """
                UPDATE content_loading_list_pages SET incomplete = 1, entity_tag = NULL, last_modified = NULL
                    WHERE list_key = ? AND request IS ? AND (\(Self.validVersion)) IS ?
                """, operation: "write the cache in")
            try update.bind(listKey, at: 1)
            try update.bind(request, at: 2)
            try update.bind(version, at: 3)
            _ = try update.step()
        }
    }
}
