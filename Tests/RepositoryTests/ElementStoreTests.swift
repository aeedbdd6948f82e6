import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// Records, not blobs: elements stored once per id, lists as their ordered ids, and one element
/// write that reaches every list and detail holding it, on disk too.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct ElementStoreTests {
    struct Contact: Identifiable, Codable, Sendable, Equatable {
        let id: Int
        var phone: String
    }

    nonisolated static let lists: [String: [Contact]] = [
        "all": [Contact(id: 1, phone: "one"), Contact(id: 2, phone: "two"), Contact(id: 3, phone: "three")],
        "favourites": [Contact(id: 3, phone: "three"), Contact(id: 2, phone: "two")],
        "other": [Contact(id: 4, phone: "four")],
    ]

    let path: String
    init() throws { path = try temporaryCachePath() }

    /// A store, a repository of lists and one of details over one file, as an app makes them
    /// at launch; `fetches` counts the requests of both.
    func launch(memory: Int = 100, fetches: Locked<Int> = Locked(0)) throws
        -> (ElementStore<Contact>, KeyedRepository<String, [Contact]>, KeyedRepository<Int, Contact>)
    {
        let store = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        let lists = KeyedRepository<String, [Contact]>(elements: store, memory: MemoryCache(countLimit: memory)) {
            key in
            fetches.withLock { $0 += 1 }
            return Self.lists[key] ?? []
        }
        let details = KeyedRepository<Int, Contact>(elements: store) { id in
            fetches.withLock { $0 += 1 }
            return Contact(id: id, phone: "fetched")
        }
        return (store, lists, details)
    }

    func rows(_ sql: String) throws -> [String] { try sqlRows(sql, in: path) }

    @Test func eachElementIsStoredOnceAndAListAsItsOrderedIds() async throws {
        let (_, lists, _) = try launch()
        for key in Self.lists.keys { try await lists.refresh(key) }
        #expect(try rows("SELECT id FROM content_loading_elements ORDER BY id") == ["1", "2", "3", "4"])
        #expect(
            try rows("SELECT CAST(value AS TEXT) FROM content_loading_cache_values WHERE key LIKE '%|favourites'")
                == [#"["3","2"]"#])
        #expect(
            try await lists.value(for: "favourites", policy: .returnCacheDontLoad)?.value == Self.lists["favourites"])
    }

    @Test func aListFetchedAgainInFullWithEqualElementsIsUnchanged() async throws {
        let (_, lists, _) = try launch()
        try await lists.refresh("all")
        var events = lists.events(for: "all", policy: .returnCacheThenLoad).makeAsyncIterator()
        let cached = try #require(await events.next()?.cachedValue)
        #expect(cached.isRefreshing)
        let fetched = try #require(await events.next()?.cachedValue)
        #expect(fetched.isUnchanged, "Contact is Equatable: the same list, compared, as any Equatable value")
        #expect(fetched.value == Self.lists["all"])
    }

    @Test func anElementWrittenByIDOutlivesTheListsThatHeldIt() async throws {
        var (store, lists, details) = try launch()
        try await lists.refresh("all")
        try await details.refresh(1)
        try await store.save(Contact(id: 2, phone: "saved"))
        try await lists.remove("all")
        #expect(try await store.element(id: 3) == nil, "only the list held it: it went with the list")

        (store, lists, details) = try launch()
        #expect(try await details.value(for: 1, policy: .returnCacheDontLoad)?.value.phone == "fetched")
        #expect(try await details.value(for: 2, policy: .returnCacheDontLoad)?.value.phone == "saved")
    }

    @Test func aFileWrittenBeforeElementsWereHeldByIDIsMigratedWithItsElements() async throws {
        var (store, lists, details) = try launch()
        try await lists.refresh("all")
        // NB: the file made as the kit made it before (schema version 7): no `held_by_id`, no
        // removals remembered, the values in the entries' rows, no pages marked incomplete, no
        // range of the entries' formats, no byte total kept.
        try SQLiteDatabase(.file(path: path)).execute(
            """
            ALTER TABLE content_loading_cache_counter DROP COLUMN lowest_format;
            ALTER TABLE content_loading_cache_counter DROP COLUMN highest_format;
            ALTER TABLE content_loading_cache_counter DROP COLUMN stored_bytes;
            DROP TRIGGER content_loading_entry_gone;
            ALTER TABLE content_loading_list_pages DROP COLUMN incomplete;
            CREATE TABLE entries_with_values (
                key TEXT PRIMARY KEY NOT NULL,
                format INTEGER NOT NULL,
                version INTEGER NOT NULL,
                value BLOB NOT NULL,
                size INTEGER NOT NULL,
                written_at REAL NOT NULL,
                accessed_at REAL NOT NULL,
                entity_tag TEXT,
                last_modified TEXT,
                max_age REAL
            );
            INSERT INTO entries_with_values
                SELECT c.key, format, version, v.value, size, written_at, accessed_at, entity_tag, last_modified, max_age
                    FROM content_loading_cache c JOIN content_loading_cache_values v ON v.key = c.key;
            DROP TABLE content_loading_cache;
            DROP TABLE content_loading_cache_values;
            ALTER TABLE entries_with_values RENAME TO content_loading_cache;
            CREATE INDEX content_loading_cache_by_access ON content_loading_cache (accessed_at);
            CREATE TRIGGER content_loading_list_gone AFTER DELETE ON content_loading_cache BEGIN
                DELETE FROM content_loading_list_members WHERE list_key = old.key;
            END;
            DROP TABLE content_loading_element_removals;
            DROP TRIGGER content_loading_element_orphaned;
            ALTER TABLE content_loading_elements DROP COLUMN held_by_id;
            CREATE TRIGGER content_loading_element_orphaned AFTER DELETE ON content_loading_list_members
                WHEN NOT EXISTS (
                    SELECT 1 FROM content_loading_list_members
                        WHERE element_type = old.element_type AND element_id = old.element_id)
            BEGIN
                DELETE FROM content_loading_elements WHERE type = old.element_type AND id = old.element_id;
            END;
            PRAGMA user_version = 7
            """)

        (store, lists, details) = try launch()
        #expect(try rows("PRAGMA user_version") == ["13"])
        #expect(try rows("SELECT count(*) FROM content_loading_element_removals") == ["0"])
        #expect(try rows("SELECT count(*) FROM content_loading_cache_values") == ["1"], "the list's value, moved")
        #expect(try await lists.value(for: "all", policy: .returnCacheDontLoad)?.value == Self.lists["all"])
        try await details.refresh(1)
        try await lists.remove("all")
        #expect(try await store.element(id: 1)?.phone == "fetched", "fetched by id since: held")
        #expect(try await store.element(id: 2) == nil, "stored before, only by the list: gone with it")
    }

    @Test func anElementSaveReachesAListOnlyOnDiskAndSurvivesARelaunch() async throws {
        var (store, lists, _) = try launch(memory: 1)
        for key in ["all", "favourites"] { try await lists.refresh(key) }
        #expect(lists.memory.keysByRecency == ["favourites"], "\"all\" is only on disk")

        try await store.save(Contact(id: 2, phone: "TWO"))
        let all = try await lists.value(for: "all", policy: .returnCacheDontLoad)
        #expect(all?.value.map(\.phone) == ["one", "TWO", "three"], "order kept")

        let fetches = Locked(0)
        (store, lists, _) = try launch(fetches: fetches)
        for (key, phones) in [("all", ["one", "TWO", "three"]), ("favourites", ["three", "TWO"])] {
            let relaunched = try await lists.value(for: key, policy: .returnCacheDontLoad)
            #expect(relaunched?.value.map(\.phone) == phones, "after a relaunch \(key) shows the edit")
            #expect(relaunched?.origin == .disk)
        }
        #expect(fetches.withLock { $0 } == 0, "no request")
        #expect(try await store.element(id: 2)?.phone == "TWO")
        #expect(try rows("SELECT count(*) FROM content_loading_elements WHERE id = '2'") == ["1"], "stored once")
    }

    @Test func oneSaveReachesEveryLiveListAndDetailHoldingTheIdAndNothingElse() async throws {
        let fetches = Locked(0)
        let (store, lists, details) = try launch(fetches: fetches)
        for key in Self.lists.keys { try await lists.refresh(key) }
        try await details.refresh(3)
        let before = fetches.withLock { $0 }
        let all = record(lists.events(for: "all"))
        let favourites = record(lists.events(for: "favourites"))
        let other = record(lists.events(for: "other"))
        let detail = record(details.events(for: 3))
        for reader in [all, favourites, other] { _ = try await reader.values(count: 1) }
        _ = try await detail.values(count: 1)

        try await store.save(Contact(id: 3, phone: "THREE"))
        let allNow = try #require(try await all.values(count: 2).last?.cachedValue)
        #expect(allNow.value.map(\.phone) == ["one", "two", "THREE"])
        #expect(allNow.origin == .local)
        #expect(try await favourites.values(count: 2).last?.cachedValue?.value.map(\.phone) == ["THREE", "two"])
        #expect(try await detail.values(count: 2).last?.cachedValue?.value.phone == "THREE")
        #expect(other.elements.count == 1, "a list without the element hears nothing")
        #expect(fetches.withLock { $0 } == before, "no request")
    }

    @Test func aDetailOpensAtOnceFromAListThatHeldIt() async throws {
        let fetches = Locked(0)
        let (_, lists, details) = try launch(fetches: fetches)
        try await lists.refresh("all")
        let detail = try #require(try await details.value(for: 2))
        #expect(detail.value == Contact(id: 2, phone: "two"))
        #expect(detail.origin == .disk)
        #expect(fetches.withLock { $0 } == 1, "only the list was fetched")
        #expect(try await details.value(for: 9)?.value.phone == "fetched", "an id no list held is fetched")
    }

    @Test func aRemovedElementLeavesEveryListInOrderAndItsDetail() async throws {
        let (store, lists, details) = try launch()
        for key in ["all", "favourites"] { try await lists.refresh(key) }
        let all = record(lists.events(for: "all"))
        let detail = record(details.events(for: 2, policy: .returnCacheDontLoad))
        _ = try await all.values(count: 1)
        #expect(try await detail.values(count: 1).first?.cachedValue?.value.phone == "two")

        try await store.remove(id: 2)
        #expect(try await all.values(count: 2).last?.cachedValue?.value.map(\.id) == [1, 3])
        #expect(try await detail.values(count: 2).last?.summary == "noValue")
        let (_, relaunched, _) = try launch()
        #expect(try await relaunched.value(for: "favourites", policy: .returnCacheDontLoad)?.value.map(\.id) == [3])
        #expect(try await store.element(id: 2) == nil)

        // A save finds its element where it moved to (a save is applied where the list held it).
        try await lists.refresh("all")
        try await store.remove(id: 1)
        try await store.save(Contact(id: 2, phone: "TWO"))
        let moved = try await lists.value(for: "all", policy: .returnCacheDontLoad)?.value
        #expect(moved?.map(\.phone) == ["TWO", "three"], "2 was at position 1, now at 0")
    }

    @Test func saveElementOnTheRepositoryGoesThroughTheStore() async throws {
        let (store, lists, _) = try launch(memory: 1)
        for key in ["all", "favourites", "other"] { try await lists.refresh(key) }
        let patched = try await lists.save(element: Contact(id: 1, phone: "ONE"))
        #expect(patched.isEmpty, "no list in memory or read held it")
        #expect(try await store.element(id: 1)?.phone == "ONE")
        #expect(try await lists.value(for: "all", policy: .returnCacheDontLoad)?.value.first?.phone == "ONE")
    }
}
