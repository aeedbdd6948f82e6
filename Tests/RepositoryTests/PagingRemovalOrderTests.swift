import ContentLoading
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

@testable import ContentLoadingRepository

/// A paging model that hears an element's removal after a newer change of the element (two
/// writers share their changes concurrently, so either may reach it first): the removal took
/// the element out of every stored page, and only a page of the model's own list written after
/// it puts the element back there. And refreshes that overlap (`+Refreshes`): the one that
/// delivers last is not always the one that wrote last. The model shows what its stored pages
/// hold.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct PagingRemovalOrderTests {
    typealias Contact = ElementStoreTests.Contact
    typealias Feed = PagingListViewModel<Void, Contact, String>

    let path: String
    let catalog = PagedCatalog(count: 12, pageSize: 3)
    let store: ElementStore<Contact>
    let feed: Feed

    init() throws {
        path = try temporaryCachePath()
        store = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        feed = PersistedPagingTests.feed(over: store, key: "feed", catalog: catalog)
    }

    /// The ids the stored pages of `key` hold from the start, as a model opened over the file
    /// offline shows them (a relaunch), for as many as `pages` pages.
    func storedIDs(of key: String, pages: Int = 1) async throws -> [Int] {
        catalog.isOnline = false
        defer { catalog.isOnline = true }
        let reopened = PersistedPagingTests.feed(
            over: ElementStore<Contact>(disk: try DiskCache(.file(path: path))), key: key, catalog: catalog)
        await reopened.refresh().completed()
        while (reopened.content?.pagesLoaded ?? 0) < pages, reopened.nextPageState == .idle {
            await reopened.loadNextPage().settled()
        }
        return reopened.items.map(\.id)
    }

    /// Holds the removals of `id` (every element's too, when `id` is `nil`) on their way to the
    /// readers, after their write, until `release` is called; `reached` returns once one is held.
    func holdRemovals(of id: Int?) -> (reached: @Sendable () async -> Void, release: @Sendable () -> Void) {
        hold { change in id.map { change.removed == $0 } ?? change.removesAll }
    }

    /// Holds the first change `picks` picks on its way to the readers, after its write, until
    /// `release` is called; `reached` returns once it is held.
    func hold(
        _ picks: @escaping @Sendable (ElementChange<Contact>) -> Bool
    ) -> (reached: @Sendable () async -> Void, release: @Sendable () -> Void) {
        let (reached, released) = (SettleSignal<Void>(), SettleSignal<Void>())
        store.listen { change in
            guard picks(change) else { return true }
            reached.resolve(())
            await released.wait()
            return false
        }
        return ({ await reached.wait() }, { released.resolve(()) })
    }

    @Test func aRemovalHeardAfterANewerSaveOfItsElementLeavesTheModel() async throws {
        await feed.refresh().completed()
        let (reached, release) = holdRemovals(of: 1)
        let removal = Task { try await store.remove(id: 1) }
        await reached()
        try await store.save(Contact(id: 1, phone: "saved after the removal"))
        #expect(feed.items.map(\.phone).contains("saved after the removal"), "the save reached the model first")

        release()
        try await removal.value
        #expect(feed.items.map(\.id) == [0, 2])
        #expect(try await storedIDs(of: "feed") == [0, 2], "what the model shows is what is stored")
    }

    @Test func aRemovalHeardAfterAnotherListStoredItsElementAgainLeavesTheModel() async throws {
        let other = PersistedPagingTests.feed(over: store, key: "other", catalog: catalog)
        await feed.refresh().completed()
        let (reached, release) = holdRemovals(of: 1)
        let removal = Task { try await store.remove(id: 1) }
        await reached()
        await other.refresh().completed()
        #expect(other.items.map(\.id) == [0, 1, 2], "fetched after the removal, the other list holds it")

        release()
        try await removal.value
        #expect(feed.items.map(\.id) == [0, 2])
        #expect(try await storedIDs(of: "feed") == [0, 2])
        #expect(other.items.map(\.id) == [0, 1, 2], "its own page, written after the removal, keeps it")
    }

    @Test func aRemovalHeardAfterTheModelsListStoredItsElementAgainKeepsIt() async throws {
        await feed.refresh().completed()
        let (reached, release) = holdRemovals(of: 1)
        let removal = Task { try await store.remove(id: 1) }
        await reached()
        catalog.update(0, phone: "changed")  // NB: so the refresh is not a 304
        await feed.refresh().completed()
        #expect(try await storedIDs(of: "feed") == [0, 1, 2], "fetched after the removal, the page holds it again")

        release()
        try await removal.value
        #expect(feed.items.map(\.id) == [0, 1, 2])
    }

    /// The removal is heard while a refresh whose request went out after it runs: the page the
    /// refresh stores holds the element again, and so does the list it shows.
    @Test func aRemovalHeardDuringARefreshFetchedAfterItLeavesTheElementTheRefreshStored() async throws {
        await feed.refresh().completed()
        let (reached, release) = holdRemovals(of: 1)
        let removal = Task { try await store.remove(id: 1) }
        await reached()
        catalog.update(0, phone: "changed")  // NB: so the refresh is not a 304
        let gate = catalog.holdNextRequest()
        let refresh = feed.refresh()
        await gate.requested()
        release()
        try await removal.value
        #expect(feed.items.map(\.id) == [0, 2], "heard while the refresh's request is out")

        gate.release()
        await refresh.completed()
        #expect(feed.items.map(\.id) == [0, 1, 2])
        #expect(try await storedIDs(of: "feed") == [0, 1, 2], "fetched after the removal, the page holds it again")
    }

    /// Each input loads a stored list of its own: a page stored for one puts nothing back in
    /// another's.
    @Test func aRemovalReachesTheModelsOfTheInputsWhosePagesWereNotStoredAgain() async throws {
        let catalog = catalog
        let source = PagingSource<String, Contact, String>.persisted(in: store, key: { "search/\($0)" }) {
            _, cursor, validators in try await catalog.page(cursor, validators: validators)
        }
        let (a, b) = (PagingListViewModel(source: source), PagingListViewModel(source: source))
        await a.refresh("a").completed()
        let (reached, release) = holdRemovals(of: 1)
        let removal = Task { try await store.remove(id: 1) }
        await reached()
        await b.refresh("b").completed()

        release()
        try await removal.value
        #expect(a.items.map(\.id) == [0, 2])
        #expect(b.items.map(\.id) == [0, 1, 2], "stored for \"b\" after the removal")
    }

    @Test func aRemovalOfEveryElementHeardAfterANewerSaveEmptiesTheModel() async throws {
        let details = KeyedRepository<Int, Contact>(elements: store) { id, _ in
            .modified(Contact(id: id, phone: "\(id)"), .none)
        }
        await feed.refresh().completed()
        let (reached, release) = holdRemovals(of: nil)
        let removal = Task { try await details.removeAll() }
        await reached()
        try await store.save(Contact(id: 1, phone: "saved after the removal"))

        release()
        try await removal.value
        #expect(feed.items.isEmpty)
        #expect(try await storedIDs(of: "feed").isEmpty)
    }
}
