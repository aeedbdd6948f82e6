import Foundation

/// Removals of the stored pages of paged lists (`ElementStore.removePages(of:)`), remembered as
/// removals are (see `DiskCache+Removals.swift`) under the namespace of the lists of one
/// element type, `pages:[type]|`: a list's key followed by U+001E, or a prefix followed by
/// U+001F (the prefix "" is the namespace's removal of every list, U+001F alone). The last
/// character tells which, whatever characters the key holds. An initial page that a fetch which started
/// before brings is then not stored. Of a removal by prefix only the prefix is remembered, not
/// the keys it removed (a sign-out leaves no search of the account in the file).
extension DiskCache {
    /// The namespace of the stored pages of the paged lists of elements of `type`.
    static func pagesNamespace(type: String) -> String { "pages:[\(type)]|" }

    /// The key the pages of the paged list `key` of elements of `type` are stored under.
    static func pagesKey(type: String, key: String) -> String { pagesNamespace(type: type) + key }

    /// Removes every stored page of the paged list `key` of elements of `type` (of every list
    /// whose key starts with `key`, when `asPrefix`), at the file's next write version, and
    /// remembers it; their elements stay while other lists hold them.
    @discardableResult
    func removePages(type: String, key: String, asPrefix: Bool) async throws -> UInt64 {
        let listKey = Self.pagesKey(type: type, key: key)
        try await writeFault?(listKey)
        return try await writeTransaction(operation: "remove from the cache in") {
            let version = try advanceVersion()
            let delete = try database.prepare(
                """
                DELETE FROM content_loading_list_pages
                    WHERE list_key = ?1
                        OR (?2 AND substr(CAST(list_key AS BLOB), 1, length(CAST(?1 AS BLOB))) = CAST(?1 AS BLOB))
                """, operation: "remove from the cache in")
            // NB: compared as bytes: the length of a text stops at a NUL, so a prefix holding one
            // matched no list.
            try delete.bind(listKey, at: 1)
            try delete.bind(asPrefix ? 1 : 0, at: 2)
            _ = try delete.step()
            let removal = asPrefix ? (key.isEmpty ? nil : key + Self.prefixRemovalMark) : key + Self.keyRemovalMark
            try recordRemoval(type: Self.pagesNamespace(type: type), id: removal, version: version)
            return version
        }
    }

    /// Whether the pages of list `listKey` (of elements of `type`) were removed after version
    /// `started`; inside a write's transaction.
    func pagesRemoved(_ listKey: String, type: String, after started: UInt64) throws -> Bool {
        let namespace = Self.pagesNamespace(type: type)
        guard listKey.hasPrefix(namespace) else { return false }
        let key = listKey.dropFirst(namespace.count)
        let removed = try removedElements(of: namespace, after: started)
        return removed.all
            || removed.ids.contains { removal in
                switch removal.unicodeScalars.last {
                case Self.prefixRemovalMark.unicodeScalars.first: key.hasPrefix(removal.dropLast())
                case Self.keyRemovalMark.unicodeScalars.first: removal.dropLast() == key
                default: false
                }
            }
    }

    /// What follows a prefix in a remembered removal of the lists it starts.
    private static let prefixRemovalMark = "\u{1F}"

    /// What follows a key in a remembered removal of its list.
    private static let keyRemovalMark = "\u{1E}"
}
