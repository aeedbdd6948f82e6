import ContentLoading
import ContentLoadingRepository
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// A list that holds an element whose row the file lost: an error naming the key and the id,
/// the rest served in order, and only the membership rows that point at nothing go (a stored
/// page: `PersistedPagingTests.aBadElementRowIsAnErrorNamingItAndTheRestOfThePageIsServed`).
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct MissingElementRowTests {
    typealias Contact = ElementStoreTests.Contact

    let path: String
    init() throws { path = try temporaryCachePath() }

    func rows(_ sql: String) throws -> [String] { try sqlRows(sql, in: path) }

    /// Deletes the element rows `ids` behind the kit's back (their membership rows stay).
    func loseRows(_ ids: String) throws {
        try SQLiteDatabase(.file(path: path)).execute("DELETE FROM content_loading_elements WHERE id IN (\(ids))")
    }

    @Test func aListHoldingAMissingElementIsAnErrorNamingItAndTheRestIsServed() async throws {
        let lists = KeyedRepository<String, [Contact]>(elements: ElementStore(disk: try DiskCache(.file(path: path)))) {
            _ in []
        }
        try await lists.save(
            [Contact(id: 1, phone: "one"), Contact(id: 2, phone: "two"), Contact(id: 3, phone: "three")], for: "a")
        try await lists.save([Contact(id: 2, phone: "two"), Contact(id: 5, phone: "five")], for: "b")
        try loseRows("'2'")

        let restarted = KeyedRepository<String, [Contact]>(
            elements: ElementStore(disk: try DiskCache(.file(path: path)))
        ) { _ in [] }
        var events = restarted.events(for: "a", policy: .returnCacheDontLoad).makeAsyncIterator()
        guard case .error(let failure) = await events.next() else {
            Issue.record("the first event is the error")
            return
        }
        let error = try #require(failure as? CacheError)
        #expect(error.description.contains("cannot read cache entry a in \(path)"))
        #expect(error.description.contains("its element 2 is missing from the file; the rest is served"))
        #expect(await events.next()?.cachedValue?.value.map(\.id) == [1, 3], "the rest served, order kept")

        #expect(
            try rows("SELECT id FROM content_loading_elements ORDER BY id") == ["1", "3", "5"], "nothing good goes")
        #expect(try rows("SELECT element_id FROM content_loading_list_members WHERE element_id = '2'") == [])
        #expect(try await restarted.value(for: "b", policy: .returnCacheDontLoad)?.value.map(\.id) == [5])
    }
}
