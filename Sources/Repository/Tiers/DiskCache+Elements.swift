import ContentLoading
import Foundation

/// Elements by id: one element's row read as an entry (with the age of the lists holding it),
/// written (a detail's fetch or save, a save through the store), confirmed and removed. See
/// `DiskCache+Records.swift` for the rows and the lists that hold them.
extension DiskCache {
    /// The stored element `id` of `type` as an entry; `nil` when there is none. Its write time
    /// is the newest of its row's and those of the lists holding it that were written or
    /// confirmed since the row (see ``listWrite(holding:id:since:)``).
    ///
    /// - Throws: ``CorruptEntry`` when the row does not validate.
    func elementEntry(type: String, id: String) throws -> Entry? {
        try database.readTransaction(operation: "read the cache in") { try storedElementEntry(type: type, id: id) }
    }

    /// ``elementEntry(type:id:)``'s read, inside a transaction.
    func storedElementEntry(type: String, id: String) throws -> Entry? {
        guard let stored = try storedElement(type: type, id: id) else { return nil }
        let writtenAt = try CorruptEntry.checking(rowAt: stored.version) {
            try Self.writtenAt(stored.writtenAt, shown: stored.shownWrittenAt)
        }
        guard let version = stored.version else {
            throw CorruptEntry(reason: "its version \(stored.shownVersion ?? "NULL") is not a positive integer")
        }
        seenVersion.withLock { $0 = max($0, UInt64(version)) }
        // NB: the lists' rows only make the element younger: when they do not read, the
        // row's own age stands, and the element is served.
        let listWrite = (try? listWrite(holding: type, id: id, since: version)) ?? nil
        return Entry(
            data: stored.data, writtenAt: max(writtenAt, listWrite ?? writtenAt), version: UInt64(version),
            validators: stored.validators)
    }

    /// The newest write time of the stored lists holding element `id` of `type` that were
    /// written or confirmed at `version` or after; `nil` when there is none. A list's 304
    /// confirms the elements it holds without writing their rows (a large list's would be
    /// written whole again), so a detail read of one has the list's age.
    private func listWrite(holding type: String, id: String, since version: Int) throws -> Date? {
        let select = try database.prepare(
            """
            SELECT max(CASE WHEN typeof(c.written_at) IN ('real', 'integer') THEN c.written_at END)
                FROM content_loading_list_members m JOIN content_loading_cache c ON c.key = m.list_key
                WHERE m.element_type = ?1 AND m.element_id = ?2
                    AND typeof(c.version) = 'integer' AND c.version >= ?3
            """, operation: "read the cache in")
        try select.bind(type, at: 1)
        try select.bind(id, at: 2)
        try select.bind(version, at: 3)
        guard try select.step(), let seconds = select.optionalDouble(at: 0) else { return nil }
        return try? Self.writtenAt(seconds, shown: nil)
    }

    /// What a write of one element (``writeElement(_:type:id:writtenAt:validators:keepingWritesAfter:)``)
    /// did.
    struct ElementWrite: Sendable {
        /// The version it stored at.
        let version: UInt64
        /// What readers get in place of the value written: the stored data of a later write
        /// kept, or the row showing pending mutations over it; `nil`: the value written.
        var kept: Data? = nil
        /// The kept row's write time and validators, when a later write was kept.
        var keptRow: (writtenAt: Date, validators: Validators)? = nil
        /// Whether a removal after the fetch started was kept: nothing was written.
        var removedSince = false
    }

    /// Writes element `id` of `type`, at the file's next write version, unless a write after
    /// `started` holds it (`nil`: whatever holds it), or it was removed after `started` and
    /// nothing wrote it since (see `DiskCache+Removals.swift`); written or kept, the element is
    /// held by id.
    ///
    /// - Returns: What was written, or kept.
    func writeElement(
        _ data: Data, type: String, id: String, writtenAt: Date, validators: Validators,
        keepingWritesAfter started: UInt64?
    ) async throws -> ElementWrite {
        try await writeFault?("\(type)|\(id)")
        return try await writeTransaction(operation: "write the cache in") {
            try storeElement(
                data, type: type, id: id, writtenAt: writtenAt, validators: validators, keepingWritesAfter: started)
        }
    }

    /// ``writeElement(_:type:id:writtenAt:validators:keepingWritesAfter:)``'s write, inside a
    /// write's transaction.
    func storeElement(
        _ data: Data, type: String, id: String, writtenAt: Date, validators: Validators,
        keepingWritesAfter started: UInt64?
    ) throws -> ElementWrite {
        let version = try advanceVersion()
        if let started, try staysRemoved(id, of: type, in: removedElements(of: type, after: started)) {
            return ElementWrite(version: version, removedSince: true)
        }
        // NB: an element with pending mutations shows them over the value written.
        let shown = try shownValue(of: data, type: type, id: id, keepingWritesAfter: started)
        let written = try upsertElement(
            shown ?? data, type: type, id: id, version: version, writtenAt: writtenAt, validators: validators,
            keepingWritesAfter: started, heldByID: true, using: try elementUpsert())
        guard written else {
            try holdByID(type: type, id: id)
            let kept = try storedElement(type: type, id: id)
            let keptAt = kept.flatMap { try? Self.writtenAt($0.writtenAt, shown: $0.shownWrittenAt) }
            return ElementWrite(
                version: version, kept: kept?.data,
                keptRow: kept.flatMap { kept in keptAt.map { ($0, kept.validators) } })
        }
        guard let shown else { return ElementWrite(version: version) }
        try writeServerValue(data, entityTag: validators.entityTag, type: type, id: id)
        return ElementWrite(version: version, kept: shown)
    }

    /// Sets the write time and validators of element `id` of `type` at the file's next write
    /// version, when it is still the one the fetch compared (see
    /// ``Confirmation/matchesStored(from:)``); `nil` when it is not.
    func confirmElement(type: String, id: String, _ confirmation: Confirmation) async throws -> UInt64? {
        try await writeFault?("\(type)|\(id)")
        return try await writeTransaction(operation: "write the cache in") {
            let version = try advanceVersion()
            let update = try database.prepare(
                """
                UPDATE content_loading_elements
                    SET written_at = ?1, version = ?2, entity_tag = coalesce(?3, entity_tag),
                        last_modified = coalesce(?4, last_modified), max_age = ?5, held_by_id = 1
                    WHERE type = ?6 AND id = ?7 AND \(Confirmation.matchesStored(from: 8))
                """, operation: "write the cache in")
            try update.bind(Self.storedTime(confirmation.writtenAt), at: 1)
            try update.bind(Int(version), at: 2)
            try Self.bind(confirmation.validators, to: update, at: 3)
            try update.bind(type, at: 6)
            try update.bind(id, at: 7)
            try confirmation.bindMatch(to: update, at: 8)
            try update.step()
            return try changedRows() > 0 ? version : nil
        }
    }

    /// Removes element `id` of `type` (`nil`: every element of `type`) and its membership
    /// rows, at the file's next write version, as an app removes it: the removal is remembered
    /// (see `DiskCache+Removals.swift`), so that a fetch that started before it does not bring
    /// the element back. The lists keep their ids; a read skips it. The lists and pages that
    /// held it lose their validators: their next fetch is a full one. (A row no read can use goes
    /// with `removeUnusableElement(type:id:found:)`, which remembers nothing.)
    @discardableResult
    func removeElement(type: String, id: String?) async throws -> UInt64 {
        try await writeFault?("\(type)|\(id ?? "*")")
        return try await writeTransaction(operation: "remove from the cache in") {
            let version = try advanceVersion()
            try forgetValidators(ofListsHolding: type, id: id)
            try deleteElement(type: type, id: id)
            try recordRemoval(type: type, id: id, version: version)
            return version
        }
    }

    /// Deletes element `id` of `type` (`nil`: every element of `type`) and its membership rows;
    /// inside a write's transaction.
    func deleteElement(type: String, id: String?) throws {
        for table in [("content_loading_list_members", "element_"), ("content_loading_elements", "")] {
            // NB: one id is a seek of the primary key; `(?2 IS NULL OR id = ?2)` read every row
            // of the type (10 ms a removal with 100,000 elements stored).
            let delete = try database.prepare(
                "DELETE FROM \(table.0) WHERE \(table.1)type = ?1" + (id == nil ? "" : " AND \(table.1)id = ?2"),
                operation: "remove from the cache in")
            try delete.bind(type, at: 1)
            if let id { try delete.bind(id, at: 2) }
            _ = try delete.step()
        }
    }
}
