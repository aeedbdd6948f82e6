import ContentLoading
import Foundation

/// What a removal of an element does to the lists and pages that hold it, beyond their
/// membership rows.
extension DiskCache {
    /// Forgets the validators (`ETag`, `Last-Modified`) of the lists and pages that hold element
    /// `id` of `type` (`nil`: any element of `type`); inside the removal's transaction, before
    /// their membership rows go. What they hold is no longer what the server sent with those
    /// validators, so their next fetch is a full one: a `304` to the validators would confirm
    /// them without the element, where a full answer of the same list brings it back.
    func forgetValidators(ofListsHolding type: String, id: String?) throws {
        guard let id else { return try forgetValidatorsOfEveryList(holding: type) }
        // NB: a few membership rows, found by the primary key; each list's or page's row by its
        // own (a page's members are listed under its list's key and its position, see
        // `DiskCache+Pages.swift`). A key that merely looks like a page's clears nothing more.
        let holders = try database.prepare(
            "SELECT list_key FROM content_loading_list_members WHERE element_type = ? AND element_id = ?",
            operation: "remove from the cache in")
        try holders.bind(type, at: 1)
        try holders.bind(id, at: 2)
        var keys: [String] = []
        while try holders.step() { keys.append(holders.text(at: 0) ?? "") }
        // NB: a row without validators is not written again (a removal after another).
        let list = try database.prepare(
            """
            UPDATE content_loading_cache SET entity_tag = NULL, last_modified = NULL
                WHERE key = ? AND (entity_tag IS NOT NULL OR last_modified IS NOT NULL)
            """, operation: "remove from the cache in")
        let page = try database.prepare(
            """
            UPDATE content_loading_list_pages SET entity_tag = NULL, last_modified = NULL
                WHERE list_key = ? AND position = ? AND (entity_tag IS NOT NULL OR last_modified IS NOT NULL)
            """, operation: "remove from the cache in")
        for key in keys {
            try list.bind(key, at: 1)
            try list.step()
            try list.reset()
            guard let separator = key.lastIndex(of: "\u{1F}"),
                let position = Int(key[key.index(after: separator)...])
            else { continue }
            try page.bind(String(key[..<separator]), at: 1)
            try page.bind(position, at: 2)
            try page.step()
            try page.reset()
        }
    }

    /// Forgets the validators of every list and page that holds an element of `type`.
    private func forgetValidatorsOfEveryList(holding type: String) throws {
        for table in [
            ("content_loading_cache", "key"), ("content_loading_list_pages", "list_key || char(31) || position"),
        ] {
            let forget = try database.prepare(
                """
                UPDATE \(table.0) SET entity_tag = NULL, last_modified = NULL
                    WHERE (entity_tag IS NOT NULL OR last_modified IS NOT NULL) AND \(table.1) IN (
                        SELECT list_key FROM content_loading_list_members WHERE element_type = ?)
                """, operation: "remove from the cache in")
            try forget.bind(type, at: 1)
            try forget.step()
        }
    }
}

extension Validators {
    /// The validators to store with a list or page fetched with these, when the write left out
    /// the elements `removed` (removed since the fetch started): none to compare, as after a
    /// removal (see ``DiskCache/forgetValidators(ofListsHolding:id:)``), since the list stored is
    /// not the one the server sent with them; the freshness stays.
    func stored(leavingOut removed: Set<String>) -> Validators {
        removed.isEmpty ? self : Validators(freshness: freshness)
    }
}
