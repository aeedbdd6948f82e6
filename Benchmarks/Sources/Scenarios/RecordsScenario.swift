import CSQLiteRaw
import ContentLoading
import ContentLoadingRepository
import Foundation

/// P9–P11: records, not blobs. A persisted paged list and a keyed list of `count` elements
/// over an `ElementStore`, and the baselines beside them: a raw table of the same rows, and
/// today's blob (the whole list as one value of a disk-tier repository).
@MainActor
public final class RecordsScenario {
    /// An element of the lists: an id and a title, as `paging-demo`'s catalog has them.
    public struct Item: Identifiable, Codable, Sendable, Equatable {
        /// The element's id.
        public let id: Int
        /// Its title; an edit changes it.
        public var title: String
    }

    struct Offline: Error {}

    let count: Int
    /// The file holding the paged list (`feed`, pages of 50); the keyed list (`all`) has its
    /// own, so each scenario has its own listeners.
    let path: String
    /// The raw table of the same rows: `items(position INTEGER PRIMARY KEY, data TEXT)`.
    let rawPath: String
    let feedStore: ElementStore<Item>
    let store: ElementStore<Item>
    let lists: KeyedRepository<String, [Item]>
    let listReader: AsyncStream<CacheEvent<[Item]>>.Iterator
    let blobs: KeyedRepository<String, [Item]>
    let blobReader: AsyncStream<CacheEvent<[Item]>>.Iterator
    /// A paging model holding every page of `feed`.
    let feed: PagingListViewModel<Void, Item, Int>
    /// A second store over `feed`'s file that no model listens to (P11's save without the model).
    let bareStore: ElementStore<Item>
    /// How long `feed`'s model took to page through every page, from the source, each stored.
    public let pagingThrough: Duration
    /// The elements as one array (P11's base copies it).
    let array: [Item]
    var edits = 0

    static func items(_ count: Int) -> [Item] { (0..<count).map { Item(id: $0, title: "Item \($0)") } }

    /// Stores `count` elements: as the paged list `feed` (paged through once by a model, which
    /// stays), as the keyed list `all` with one live reader, as a blob list with one live
    /// reader, and as a raw table.
    public init(count: Int) async throws {
        self.count = count
        let items = Self.items(count)
        array = items
        path = try SQLiteScenario.freshPath().replacingOccurrences(of: "contacts.sqlite", with: "records.sqlite")
        rawPath = path.replacingOccurrences(of: "records.sqlite", with: "raw.sqlite")
        feedStore = ElementStore<Item>(disk: try DiskCache(.file(path: path)))
        feed = PagingListViewModel(
            source: .persisted(in: feedStore, key: "feed") { cursor in Self.page(cursor, of: items) })
        let started = ContinuousClock.now
        await feed.refresh().completed()
        while feed.itemCount < count { await feed.loadNextPage().settled() }
        pagingThrough = .now - started
        bareStore = ElementStore<Item>(disk: try DiskCache(.file(path: path)))

        let listPath = path.replacingOccurrences(of: "records.sqlite", with: "lists.sqlite")
        store = ElementStore<Item>(disk: try DiskCache(.file(path: listPath)))
        lists = KeyedRepository(elements: store) { _ in items }
        try await lists.refresh("all")
        listReader = await Self.reader(of: lists)
        let blobPath = path.replacingOccurrences(of: "records.sqlite", with: "blobs.sqlite")
        blobs = KeyedRepository(disk: try DiskCache(.file(path: blobPath))) { _ in items }
        try await blobs.refresh("all")
        blobReader = await Self.reader(of: blobs)
        try Self.writeRawTable(items, at: rawPath)
    }

    private nonisolated static func page(_ cursor: Int?, of items: [Item]) -> Page<Item, Int> {
        let start = cursor ?? 0
        let end = min(start + 50, items.count)
        return Page(items: Array(items[start..<end]), nextCursor: end < items.count ? end : nil)
    }

    private static func reader(of lists: KeyedRepository<String, [Item]>) async
        -> AsyncStream<
            CacheEvent<[Item]>
        >.Iterator
    {
        var reader = lists.events(for: "all", policy: .returnCacheDontLoad).makeAsyncIterator()
        _ = await reader.next(isolation: #isolation)
        return reader
    }

    // MARK: - P9: cold open

    /// The kit: a closed file opened, a paging model over the stored list, offline, until it
    /// shows the first 50 items. Returns that time: the refresh then goes on (to the source,
    /// which fails offline) and is awaited outside it.
    public func coldOpen() async throws -> Duration {
        let started = ContinuousClock.now
        let store = ElementStore<Item>(disk: try DiskCache(.file(path: path)))
        let model = PagingListViewModel(
            source: .persisted(in: store, key: "feed") { (_: Int?) -> Page<Item, Int> in throw Offline() })
        var contents = model.contents.makeAsyncIterator()
        _ = await contents.next(isolation: #isolation)
        let refresh = model.refresh()
        guard case let shown?? = await contents.next(isolation: #isolation), shown.count == 50, shown.first?.id == 0
        else {
            fatalError("P9: the first page is not shown")
        }
        let firstValue = ContinuousClock.now - started
        await refresh.completed()
        return firstValue
    }

    /// Raw sqlite3: open, a keyset `SELECT data FROM items WHERE position > ? ORDER BY position
    /// LIMIT 50`, `JSONDecoder` of each row, close.
    public func rawColdOpen() throws {
        var db: OpaquePointer?
        guard sqlite3_open(rawPath, &db) == SQLITE_OK, let db else { fatalError("P9: open failed") }
        defer { sqlite3_close(db) }
        var statement: OpaquePointer?
        sqlite3_prepare_v2(
            db, "SELECT data FROM items WHERE position > ?1 ORDER BY position LIMIT 50", -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_int64(statement, 1, -1)
        let decoder = JSONDecoder()
        var items: [Item] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            let data = Data(bytes: sqlite3_column_blob(statement, 0), count: Int(sqlite3_column_bytes(statement, 0)))
            items.append(try decoder.decode(Item.self, from: data))
        }
        guard items.count == 50 else { fatalError("P9: raw read \(items.count) rows") }
    }

    /// P9's other base: raw sqlite3 over the kit's own file, as an app reading the kit's tables
    /// with its own SQL would: open, the initial page's row (its ids), its elements through
    /// their membership rows, `JSONDecoder` of each in the page's order, close. What the
    /// file's layout costs (its schema, read at open; elements stored once, one row each,
    /// wherever their ids fall), without the kit's code.
    ///
    /// NB: the keys are the kit's internal forms (a list's pages, a page's members): a change
    /// of them fails here (CI runs it, `--time-open 3 1000`), as C2's raw read does.
    public func rawKitFileColdOpen() throws {
        var db: OpaquePointer?
        guard sqlite3_open(path, &db) == SQLITE_OK, let db else { fatalError("P9: open failed") }
        defer { sqlite3_close(db) }
        let type = String(reflecting: Item.self)
        let listKey = "pages:[\(type)]|feed"
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        var page: OpaquePointer?
        sqlite3_prepare_v2(
            db,
            "SELECT ids FROM content_loading_list_pages WHERE list_key = ?1 AND request IS NULL ORDER BY position LIMIT 1",
            -1, &page, nil)
        defer { sqlite3_finalize(page) }
        sqlite3_bind_text(page, 1, listKey, -1, transient)
        guard sqlite3_step(page) == SQLITE_ROW else { fatalError("P9: the kit's file holds no initial page") }
        let decoder = JSONDecoder()
        let ids = try decoder.decode(
            [String].self, from: Data(bytes: sqlite3_column_blob(page, 0), count: Int(sqlite3_column_bytes(page, 0))))
        var members: OpaquePointer?
        sqlite3_prepare_v2(
            db,
            """
            SELECT m.element_id, e.value FROM content_loading_list_members m
                JOIN content_loading_elements e ON e.type = m.element_type AND e.id = m.element_id
                WHERE m.list_key = ?1 AND m.element_type = ?2
            """, -1, &members, nil)
        defer { sqlite3_finalize(members) }
        sqlite3_bind_text(members, 1, "\(listKey)\u{1F}0", -1, transient)
        sqlite3_bind_text(members, 2, type, -1, transient)
        var rows: [String: Data] = [:]
        while sqlite3_step(members) == SQLITE_ROW {
            let id = String(
                decoding: UnsafeRawBufferPointer(
                    start: sqlite3_column_blob(members, 0), count: Int(sqlite3_column_bytes(members, 0))),
                as: UTF8.self)
            rows[id] = Data(
                bytes: sqlite3_column_blob(members, 1), count: Int(sqlite3_column_bytes(members, 1)))
        }
        let items = try ids.map { id in
            guard let row = rows[id] else { fatalError("P9: the kit's file holds no row of element \(id)") }
            return try decoder.decode(Item.self, from: row)
        }
        guard items.count == 50, items.first?.id == 0 else {
            fatalError("P9: raw read of the kit's file: \(items.count) items")
        }
    }

    private static func writeRawTable(_ items: [Item], at path: String) throws {
        var db: OpaquePointer?
        guard sqlite3_open(path, &db) == SQLITE_OK, let db else { fatalError("P9: open failed") }
        defer { sqlite3_close(db) }
        sqlite3_exec(db, "CREATE TABLE items(position INTEGER PRIMARY KEY, data TEXT); BEGIN", nil, nil, nil)
        var insert: OpaquePointer?
        sqlite3_prepare_v2(db, "INSERT INTO items(position, data) VALUES (?1, ?2)", -1, &insert, nil)
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        let encoder = JSONEncoder()
        for (position, item) in items.enumerated() {
            sqlite3_bind_int64(insert, 1, sqlite3_int64(position))
            sqlite3_bind_text(insert, 2, String(decoding: try encoder.encode(item), as: UTF8.self), -1, transient)
            guard sqlite3_step(insert) == SQLITE_DONE else { fatalError("P9: insert failed") }
            sqlite3_reset(insert)
        }
        sqlite3_finalize(insert)
        sqlite3_exec(db, "COMMIT", nil, nil, nil)
    }

    // MARK: - P10, P11: one element saved

    private func edited() -> Item {
        edits += 1
        return Item(id: count / 2, title: "Edit \(edits)")
    }

    /// P10, the kit: `ElementStore.save` of one element of the list, until the list's live
    /// reader has it (the row written, the list in memory edited, the reader given it).
    public func elementSave() async throws {
        let item = edited()
        try await store.save(item)
        var reader = listReader
        guard case .value(let list)? = await reader.next(isolation: #isolation), list.value[count / 2] == item else {
            fatalError("P10: the reader did not get the edit")
        }
    }

    /// P10, today's blob: `save(element:)` on a disk-tier repository, which rewrites the list's
    /// one value, until its live reader has it.
    public func blobSave() async throws {
        let item = edited()
        try await blobs.save(element: item)
        var reader = blobReader
        guard case .value(let list)? = await reader.next(isolation: #isolation), list.value[count / 2] == item else {
            fatalError("P10: the blob reader did not get the edit")
        }
    }

    /// P11: the same save reaching the paging model that holds every page of the list (the
    /// save returns once every listener, the model too, has it).
    public func modelSave() async throws {
        let item = edited()
        try await feedStore.save(item)
        guard feed.item(at: count / 2) == item else { fatalError("P11: the model did not get the edit") }
    }

    /// P11's save without the model: the same element saved to the same file through a store
    /// nothing listens to, so that the model's part is the difference.
    public func bareSave() async throws {
        try await bareStore.save(edited())
    }

    /// P11's base: the list as one array, edited while another holds it, so the edit copies
    /// all of it.
    public func arrayCopy() {
        var items = array
        items[count / 2].title = "copied \(edits)"
        guard items.count == count, items[count / 2] != array[count / 2] else { fatalError("P11: no copy") }
    }
}
