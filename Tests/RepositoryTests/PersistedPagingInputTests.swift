import ContentLoading
import ContentLoadingRepository
import Foundation
import KitTestSupport
import Testing

/// Paged lists kept in an element store per input: each input's pages under its own key, a
/// model that opens each from its own stored pages (offline too), and elements shared by all.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct PersistedPagingInputTests {
    typealias Contact = ElementStoreTests.Contact
    typealias Search = PagingListViewModel<String, Contact, String>

    struct UnknownQuery: Error {}

    let path: String
    /// The server's results for "ada" (ids 0–3) and "bob" (ids 10–13), two a page.
    let results = ["ada": PagedCatalog(count: 0, pageSize: 2), "bob": PagedCatalog(count: 0, pageSize: 2)]

    init() throws {
        path = try temporaryCachePath()
        for index in 0..<4 {
            results["ada"]?.insert(Contact(id: index, phone: "a\(index)"), at: index)
            results["bob"]?.insert(Contact(id: 10 + index, phone: "b\(index)"), at: index)
        }
    }

    func launch() throws -> (ElementStore<Contact>, Search) {
        let store = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        let results = results
        let search = Search(
            source: .persisted(in: store, key: { "search/\($0)" }) { query, cursor, validators in
                guard let catalog = results[query] else { throw UnknownQuery() }
                return try await catalog.page(cursor, validators: validators)
            })
        return (store, search)
    }

    func goOffline() {
        for catalog in results.values { catalog.isOnline = false }
    }

    @Test func eachInputOpensFromItsOwnStoredPagesOfflineToo() async throws {
        var (_, search) = try launch()
        await search.refresh("ada").completed()
        await search.loadNextPage().settled()
        #expect(search.items.map(\.id) == [0, 1, 2, 3])
        await search.refresh("bob").completed()
        #expect(search.items.map(\.id) == [10, 11])
        #expect(
            try sqlRows("SELECT DISTINCT list_key FROM content_loading_list_pages ORDER BY list_key", in: path)
                .map { $0.hasSuffix("|search/ada") || $0.hasSuffix("|search/bob") } == [true, true])

        goOffline()
        (_, search) = try launch()
        await search.refresh("ada").completed()
        await search.loadNextPage().settled()
        #expect(search.items.map(\.id) == [0, 1, 2, 3], "ada's stored pages, offline")
        let switched = await search.refresh("bob").completed()
        #expect(switched.content?.map(\.id) == [10, 11], "bob's stored page, not ada's list with an error")
        #expect(switched.error != nil, "the failed request beside it")
    }

    @Test func aSaveReachesTheStoredPagesOfEveryInput() async throws {
        var (store, search) = try launch()
        results["bob"]?.insert(Contact(id: 1, phone: "a1"), at: 0)
        await search.refresh("ada").completed()
        await search.refresh("bob").completed()
        #expect(search.items.map(\.id) == [1, 10])

        try await store.save(Contact(id: 1, phone: "edited"))
        #expect(search.items.first?.phone == "edited", "the model shows it")

        goOffline()
        (_, search) = try launch()
        await search.refresh("ada").completed()
        #expect(search.items.map(\.phone) == ["a0", "edited"], "ada's stored page, on disk")
        await search.refresh("bob").completed()
        #expect(search.items.map(\.phone) == ["edited", "b0"], "bob's")
    }
}
