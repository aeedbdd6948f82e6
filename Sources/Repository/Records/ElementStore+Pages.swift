import ContentLoading
import Foundation

/// The stored pages of the paged lists over the store (`PagingSource.persisted(in:key:pages:)`
/// and its variants), removed when the app says they no longer hold: at a sign-out, or after a
/// change on the server that the first page does not show.
extension ElementStore {
    /// Removes the stored pages of the paged list `key` (the key its
    /// `PagingSource.persisted(in:key:pages:)` source was given). An element that no other
    /// list and no detail holds goes with them.
    ///
    /// A model that opens the list next finds nothing stored and fetches its pages (storing them
    /// again); a model that shows the list keeps what it shows, and stores pages again from its
    /// next refresh. A refresh that was on its way when the pages were removed does not store its
    /// page, nor does a page that model loads before its next refresh (no stored page asks for
    /// it); their elements that other lists or details hold are written all the same, so those
    /// show what the model shows.
    ///
    /// ```swift
    /// try await contacts.removePages(of: "feed")   // the next feed opens from the server
    /// ```
    ///
    /// - Throws: ``CacheError`` naming the file and the list when the removal fails: then
    ///   nothing changed.
    public func removePages(of key: String) async throws {
        try await removePages(key, asPrefix: false, named: key)
    }

    /// Removes the stored pages of every paged list over the store whose key starts with
    /// `prefix` (every one, with `""`), as ``removePages(of:)`` does for one: the stored searches
    /// (`"search/"`), or all of them at a sign-out.
    ///
    /// - Throws: ``CacheError`` naming the file and the prefix when the removal fails: then
    ///   nothing changed.
    public func removePages(ofKeysWithPrefix prefix: String) async throws {
        try await removePages(prefix, asPrefix: true, named: "\(prefix)…")
    }

    /// The key the pages of the paged list the app named `key` are stored under.
    func pagesKey(_ key: String) -> String { DiskCache.pagesKey(type: type, key: key) }

    private func removePages(_ key: String, asPrefix: Bool, named name: String) async throws {
        do {
            try await disk.removePages(type: type, key: key, asPrefix: asPrefix)
        } catch {
            throw CacheError(
                operation: "remove the pages of", path: disk.path, key: "pages \(name)",
                reason: CacheError.reason(error))
        }
    }
}
