import ContentLoading
import ContentLoadingRepository
import ContentLoadingTesting
import Foundation
import Testing

/// A list or a page that holds an element whose row the file lost: an error naming the key and
/// the id, the rest served in order, and only the membership rows that point at nothing go.
@MainActor
@Suite(.timeLimit(.minutes(1)))
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

    @Test func aStoredPageHoldingAMissingElementIsAnErrorNamingItAndTheRestIsServed() async throws {
        let catalog = PagedCatalog(count: 12, pageSize: 3)
        func launch() throws -> PagingListViewModel<Void, Contact, String> {
            PagingListViewModel(
                source: .persisted(in: ElementStore(disk: try DiskCache(.file(path: path))), key: "feed") {
                    cursor, validators in try await catalog.page(cursor, validators: validators)
                })
        }
        var feed = try launch()
        await feed.refresh().completed()
        await feed.loadNextPage().settled()
        try loseRows("'1', '4'")

        catalog.isOnline = false
        feed = try launch()
        let recorder = StateRecorder(feed)
        await feed.refresh().completed()
        let errors = recorder.states.compactMap { $0.error as? CacheError }
        #expect(errors.count == 1)
        #expect(errors.first?.description.contains("cannot read cache entry pages feed in \(path)") == true)
        #expect(errors.first?.description.contains("its element 1 is missing from the file") == true)
        #expect(feed.items.map(\.id) == [0, 2], "the rest of the initial page, offline")

        guard case .failed(let failure) = await feed.loadNextPage().settled() else {
            Issue.record("a stored page holding a missing element fails once")
            return
        }
        #expect("\(failure)".contains("its element 4 is missing from the file"))
        #expect(await feed.retryNextPage().settled() == .idle)
        #expect(feed.items.map(\.id) == [0, 2, 3, 5], "the rest of the second page, from the file")
        #expect(
            try rows("SELECT id FROM content_loading_elements ORDER BY CAST(id AS INTEGER)") == ["0", "2", "3", "5"])
    }
}
