import Foundation

extension DiskCache {
    /// The entry for `key`, else the one stored under `legacy` (the form keys had before
    /// namespaces), in one call; `isLegacy` says which was found.
    ///
    /// NB: one call, so a read that misses costs the one hop onto the cache it always cost.
    func entry(for key: String, orLegacy legacy: String, now: Date) throws -> (entry: Entry, isLegacy: Bool)? {
        if let entry = try entry(for: key, now: now) { return (entry, false) }
        guard legacy != key, let entry = try? entry(for: legacy, now: now) else { return nil }
        return (entry, true)
    }

    /// Moves the entry stored under `legacy` to `key`, unless `key` already has one: an entry
    /// written before repositories had namespaces, claimed by the repository it decodes for.
    ///
    /// - Returns: Whether the entry moved.
    func move(_ legacy: String, to key: String) async throws -> Bool {
        try await writeTransaction(operation: "move an entry in") {
            let update = try database.prepare(
                """
                UPDATE content_loading_cache SET key = ?
                    WHERE key = ? AND NOT EXISTS (SELECT 1 FROM content_loading_cache WHERE key = ?)
                """, operation: "move an entry in")
            try update.bind(key, at: 1)
            try update.bind(legacy, at: 2)
            try update.bind(key, at: 3)
            _ = try update.step()
            let moved = try changedRows() > 0
            if moved {
                let moveValue = try database.prepare(
                    "UPDATE content_loading_cache_values SET key = ? WHERE key = ?", operation: "move an entry in")
                try moveValue.bind(key, at: 1)
                try moveValue.bind(legacy, at: 2)
                _ = try moveValue.step()
            }
            // NB: the key's bytes count in the total; the new key is longer.
            if moved { try measureTotalBytes() }
            return moved
        }
    }

    /// Removes every entry whose key starts with `prefix` (one repository's namespace), at the
    /// file's next write version.
    ///
    /// - Returns: The version of the removal.
    @discardableResult
    func removeAll(prefixedBy prefix: String) async throws -> UInt64 {
        try await writeTransaction(operation: "clear the cache in") {
            let version = try advanceVersion()
            let delete = try database.prepare(
                "DELETE FROM content_loading_cache WHERE substr(key, 1, length(?1)) = ?1",
                operation: "clear the cache in")
            try delete.bind(prefix, at: 1)
            _ = try delete.step()
            try measureTotalBytes()
            pendingReads = pendingReads.filter { !$0.key.hasPrefix(prefix) }
            return version
        }
    }
}
