import ContentLoading
import Foundation

/// Paged lists: each page of a list a row of `content_loading_list_pages` (its place in the
/// list, the cursor that requested it, the cursors of its neighbours, its ids, when it was
/// fetched and its validators), its elements stored once in `content_loading_elements` and
/// held through membership rows under the page's own key (`list key`, U+001F, position). A
/// page, its membership rows and its elements are written in one transaction, so a file holds
/// a page and its elements, or neither.
///
/// The stored pages of a list are contiguous: a page is written only next to a stored page
/// whose cursor asked for it (or as the initial page, position 0), and a page whose cursor
/// away from the initial page, or whose ids, changed takes the stored pages beyond it on that
/// side with it (both sides of the initial page); those between it and the initial page stay.
extension DiskCache {
    static let pagesSchema = """
        CREATE TABLE content_loading_list_pages (
            list_key TEXT NOT NULL,
            position INTEGER NOT NULL,
            request TEXT,
            previous_cursor TEXT,
            next_cursor TEXT,
            ids BLOB NOT NULL,
            version INTEGER NOT NULL,
            fetched_at REAL NOT NULL,
            entity_tag TEXT,
            last_modified TEXT,
            max_age REAL,
            PRIMARY KEY (list_key, position)
        ) WITHOUT ROWID;
        CREATE TRIGGER content_loading_page_gone AFTER DELETE ON content_loading_list_pages BEGIN
            DELETE FROM content_loading_list_members WHERE list_key = old.list_key || char(31) || old.position;
        END
        """

    /// Where a page joins its stored list.
    enum PagePlacement: Sendable {
        /// The initial page (requested with no cursor): position 0.
        case initial
        /// After the stored page whose next cursor is `cursor` (encoded).
        case after(cursor: String)
        /// Before the stored page whose previous cursor is `cursor` (encoded).
        case before(cursor: String)

        /// Whether this is the initial page's place.
        var isInitial: Bool { request == nil }

        /// The cursor that requested the page; `nil` for the initial page.
        var request: String? {
            switch self {
            case .initial: nil
            case .after(let cursor), .before(let cursor): cursor
            }
        }
    }

    /// One page as stored: its place, its cursors (encoded), its ids (encoded) and the stored
    /// data of its elements, by id.
    struct StoredPage: Sendable {
        let position: Int
        let previousCursor: String?
        let nextCursor: String?
        let ids: Data
        /// `nil` for an element the page holds with no row.
        let elements: [String: Data?]
        let fetchedAt: Date
        let validators: Validators
        /// Whether it was served without some of its elements since it was written (see
        /// `markIncomplete(pageOf:request:foundAt:)`).
        let isIncomplete: Bool
        /// Its row's version; `nil` when it does not validate.
        let version: Int?
        /// The file's version when it was read: every write up to it is in the page (the
        /// elements' rows, the removals); `nil` when that does not read.
        var readAt: UInt64? = nil
    }

    /// The key the membership rows of page `position` of list `listKey` are stored under.
    static func pageMembersKey(_ listKey: String, position: Int) -> String {
        "\(listKey)\u{1F}\(position)"
    }

    /// The stored page of list `listKey` that `request` (an encoded cursor; `nil`: the initial
    /// page) loaded, with its elements of `type`, read together; `nil` when it is not stored.
    ///
    /// - Throws: ``CorruptEntry`` when the page row does not validate.
    func storedPage(of listKey: String, request: String?, type: String) throws -> StoredPage? {
        try database.readTransaction(operation: "read the cache in") {
            var page = try readPage(of: listKey, request: request) { position in
                try memberElements(Self.pageMembersKey(listKey, position: position), type: type)
            }
            // NB: in the read's transaction: the version its snapshot holds every write up to.
            page?.readAt = (try? Self.counter(in: database, operation: "read the cache in")).flatMap { $0 }
                .map(UInt64.init)
            return page
        }
    }

    /// The validators of the stored page of list `listKey` that `request` loaded (its row
    /// alone: no element is read); `nil` when it is not stored.
    func storedPageValidators(of listKey: String, request: String?) throws -> Validators? {
        try database.readTransaction(operation: "read the cache in") {
            try readPage(of: listKey, request: request) { _ in [:] }?.validators
        }
    }

    /// The page row of list `listKey` that `request` loaded, with the elements `elements`
    /// reads for its position; inside a transaction.
    private func readPage(of listKey: String, request: String?, elements: (Int) throws -> [String: Data?]) throws
        -> StoredPage?
    {
        let select = try database.prepare(
            """
            SELECT position, previous_cursor, next_cursor, ids,
                    CASE WHEN typeof(fetched_at) IN ('real', 'integer') THEN fetched_at END, fetched_at,
                    entity_tag, last_modified, max_age, incomplete, \(Self.validVersion)
                FROM content_loading_list_pages WHERE list_key = ? AND request IS ? ORDER BY position LIMIT 1
            """, operation: "read the cache in")
        try select.bind(listKey, at: 1)
        try select.bind(request, at: 2)
        guard try select.step() else { return nil }
        let version = select.optionalInt(at: 10)
        let (ids, fetchedAt) = try CorruptEntry.checking(rowAt: version) {
            guard let ids = select.data(at: 3) else { throw CorruptEntry(reason: "its ids are missing") }
            return (ids, try Self.writtenAt(select.optionalDouble(at: 4), shown: select.text(at: 5)))
        }
        let position = select.int(at: 0)
        return StoredPage(
            position: position, previousCursor: select.text(at: 1), nextCursor: select.text(at: 2), ids: ids,
            elements: try elements(position), fetchedAt: fetchedAt,
            validators: Validators(
                entityTag: select.text(at: 6), lastModified: select.text(at: 7),
                freshness: Self.freshness(maxAge: select, at: 8)),
            isIncomplete: select.int(at: 9) != 0, version: version)
    }

    /// Writes a page of list `listKey` (its cursors and `ids`, encoded) with its `elements`,
    /// at the file's next write version, in one transaction, where `placement` puts it: each
    /// element's row (unless a write after `started` holds it: that one is kept), the page's
    /// membership rows, then its row. The stored pages beyond a cursor that changed go, and those
    /// beyond a page whose ids changed (see `dropPages`).
    ///
    /// When no stored page asks for it (the list's stored pages went meanwhile), or the list's
    /// pages were removed after `started`, the page is not stored, but its elements that the
    /// file holds (for other lists) are written, as any fetch's are: no reader is left showing
    /// an older copy than the page shows.
    ///
    /// With `unlessCancelled`, a page whose task is cancelled is not written: the check is in
    /// the write's transaction, so a task that cancels this one, then reads the list's pages,
    /// finds them with this page or without it, never overwritten by it later.
    ///
    /// - Returns: What was written; `nil` (nothing written) when the page is not stored and the
    ///   file holds none of its elements.
    /// - Throws: ``SQLiteError`` when the write fails (nothing changes); `CancellationError`
    ///   (nothing written) when `unlessCancelled` and the task is cancelled.
    func writePage(
        _ ids: Data, previousCursor: String?, nextCursor: String?, elements: [EncodedElement], type: String,
        of listKey: String, at placement: PagePlacement, fetchedAt: Date, validators: Validators,
        keepingWritesAfter started: UInt64?, unlessCancelled: Bool = false
    ) async throws -> WrittenPage? {
        try await writeFault?(listKey)
        return try await writeTransaction(operation: "write the cache in", unlessCancelled: unlessCancelled) {
            // NB: the list's pages were removed since the fetch started: it does not store them
            // again. Nor a page no stored page asks for. The elements other lists hold are written.
            let isRemoved = try started.map { try pagesRemoved(listKey, type: type, after: $0) } ?? false
            guard !isRemoved, let position = try position(of: placement, in: listKey) else {
                return try writeHeldElements(elements, type: type, writtenAt: fetchedAt, keepingWritesAfter: started)
            }
            let version = try advanceVersion()
            let written = try upsertElements(
                elements, type: type, version: version, writtenAt: fetchedAt, keepingWritesAfter: started)
            try replaceMembers(
                of: Self.pageMembersKey(listKey, position: position), type: type,
                with: Set(elements.map(\.id)).subtracting(written.removed))
            try dropPages(
                of: listKey, beyond: position, ids: ids, previousCursor: previousCursor, nextCursor: nextCursor)
            let onOtherPages = try idsOnOtherPages(elements.map(\.id), type: type, of: listKey, besides: position)
            let insert = try database.prepare(
                """
                INSERT OR REPLACE INTO content_loading_list_pages (list_key, position, request, previous_cursor,
                    next_cursor, ids, version, fetched_at, entity_tag, last_modified, max_age)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, operation: "write the cache in")
            try insert.bind(listKey, at: 1)
            try insert.bind(position, at: 2)
            try insert.bind(placement.request, at: 3)
            try insert.bind(previousCursor, at: 4)
            try insert.bind(nextCursor, at: 5)
            try insert.bind(ids, at: 6)
            try insert.bind(Int(version), at: 7)
            try insert.bind(Self.storedTime(fetchedAt), at: 8)
            try Self.bind(validators.stored(leavingOut: written.removed), to: insert, at: 9)
            try insert.step()
            return WrittenPage(
                version: version, kept: written.kept, removed: written.removed, onOtherPages: onOtherPages,
                elementsOnly: nil)
        }
    }

    // MARK: - Private

    /// The position a page placed by `placement` takes; `nil` when no stored page asks for it.
    ///
    /// A page asked for at one end may have been stored from the other: one the page window
    /// dropped going forward and loads again going back was asked for by its previous page's
    /// next cursor. So a page `.before(cursor:)` no stored page's previous cursor asks for
    /// goes after the page whose next cursor does, and the other way round: next to the page
    /// whose cursor leads to it, whichever end it is loaded at.
    private func position(of placement: PagePlacement, in listKey: String) throws -> Int? {
        let select = try database.prepare(
            """
            SELECT position + CASE WHEN next_cursor IS ?2 THEN 1 ELSE -1 END FROM content_loading_list_pages
                WHERE list_key = ?1 AND (next_cursor IS ?2 OR previous_cursor IS ?2)
                ORDER BY (next_cursor IS ?2) = ?3 DESC LIMIT 1
            """, operation: "write the cache in")
        let (cursor, isAfter): (String, Bool)
        switch placement {
        case .initial: return 0
        case .after(let next): (cursor, isAfter) = (next, true)
        case .before(let previous): (cursor, isAfter) = (previous, false)
        }
        try select.bind(listKey, at: 1)
        try select.bind(cursor, at: 2)
        try select.bind(isAfter ? 1 : 0, at: 3)
        return try select.step() ? select.int(at: 0) : nil
    }

    /// The ids among `ids` (of elements of `type`) that a stored page of list `listKey` other
    /// than the one at `position` holds: one lookup of the membership key per id.
    private func idsOnOtherPages(_ ids: [String], type: String, of listKey: String, besides position: Int) throws
        -> [String]
    {
        let select = try database.prepare(
            """
            SELECT 1 FROM content_loading_list_members
                WHERE element_type = ?1 AND element_id = ?2 AND list_key > ?3 AND list_key < ?4 AND list_key != ?5
                    AND instr(substr(CAST(list_key AS BLOB), length(CAST(?3 AS BLOB)) + 1), CAST(char(31) AS BLOB)) = 0
                LIMIT 1
            """, operation: "write the cache in")
        // NB: the membership keys of the list's pages (list key, U+001F, position) sort after the
        // list key with U+001F and before it with U+0020; so do those of a list whose key is this
        // one's, U+001F and more, which hold a second U+001F after this one's. Counted in bytes:
        // the length of a text stops at a NUL, which a list's key may hold.
        try select.bind(type, at: 1)
        try select.bind("\(listKey)\u{1F}", at: 3)
        try select.bind("\(listKey)\u{20}", at: 4)
        try select.bind(Self.pageMembersKey(listKey, position: position), at: 5)
        return try ids.filter { id in
            try select.bind(id, at: 2)
            defer { try? select.reset(clearingBindings: false) }
            return try select.step()
        }
    }

    /// Removes the stored pages of list `listKey` beyond the page at `position` that is being
    /// written, on the side away from the initial page (both sides of the initial page), when
    /// the page's cursor towards that side or its `ids` changed; the pages between it and the
    /// initial page stay (they asked for it, and lead to it still). The stored pages there were
    /// fetched after the page as it was: an item inserted in it or removed from it moved every
    /// offset after it, though an offset cursor (page 2, item 25) stays the same.
    private func dropPages(
        of listKey: String, beyond position: Int, ids: Data, previousCursor: String?, nextCursor: String?
    ) throws {
        let select = try database.prepare(
            """
            SELECT previous_cursor, next_cursor, ids FROM content_loading_list_pages WHERE list_key = ? AND position = ?
            """, operation: "write the cache in")
        try select.bind(listKey, at: 1)
        try select.bind(position, at: 2)
        guard try select.step() else { return }
        let (storedPrevious, storedNext) = (select.text(at: 0), select.text(at: 1))
        let idsChanged = select.data(at: 2) != ids
        try select.reset()
        let delete = try database.prepare(
            """
            DELETE FROM content_loading_list_pages
                WHERE list_key = ?1 AND ((?2 AND position > ?4) OR (?3 AND position < ?4))
            """, operation: "write the cache in")
        try delete.bind(listKey, at: 1)
        // NB: only away from the initial page: the pages between it and this one asked for it.
        try delete.bind(position >= 0 && (storedNext != nextCursor || idsChanged) ? 1 : 0, at: 2)
        try delete.bind(position <= 0 && (storedPrevious != previousCursor || idsChanged) ? 1 : 0, at: 3)
        try delete.bind(position, at: 4)
        _ = try delete.step()
    }
}
