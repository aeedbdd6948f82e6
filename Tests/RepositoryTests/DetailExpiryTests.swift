import ContentLoading
import ContentLoadingRepository
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// A detail whose element row has expired is a miss, and its copy goes, but not the element:
/// the lists and stored pages that hold it keep it. A detail has the age of the newest list
/// holding it that was written or confirmed (a 304) since its row. (Before, a detail read of an
/// expired element removed it from every list that held it, silently; and a detail opened from
/// a list a 304 confirmed a minute ago could be a week old, or expired: the 304 leaves the
/// elements' rows as they were.)
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct DetailExpiryTests {
    typealias Contact = ElementStoreTests.Contact

    let clock = TestWallClock()
    let path: String
    let ages = CacheAges(staleAfter: .seconds(60), expireAfter: .seconds(7 * 86_400))
    init() throws { path = try temporaryCachePath() }

    func store() throws -> ElementStore<Contact> {
        ElementStore(disk: try DiskCache(.file(path: path)), now: { [clock] in clock.now })
    }

    /// A repository of lists whose server answers "a" with contacts 1 and 2, under one ETag.
    func lists(over store: ElementStore<Contact>) -> KeyedRepository<String, [Contact]> {
        let tag = Validators(entityTag: "\"1\"")
        return KeyedRepository(elements: store, ages: ages, now: { [clock] in clock.now }) { _, validators in
            validators == tag
                ? .notModified(tag) : .modified([Contact(id: 1, phone: "one"), Contact(id: 2, phone: "two")], tag)
        }
    }

    func details(over store: ElementStore<Contact>) -> KeyedRepository<Int, Contact> {
        KeyedRepository(elements: store, ages: ages, now: { [clock] in clock.now }) {
            Contact(id: $0, phone: "fetched")
        }
    }

    @Test func aListA304ConfirmedGivesItsAgeToItsElements() async throws {
        let store = try store()
        let lists = lists(over: store)
        try await lists.refresh("a")
        clock.advance(by: 6 * 86_400)
        #expect(try await lists.refresh("a") == .notModified)
        clock.advance(by: 2 * 86_400)

        let detail = try await details(over: try self.store()).value(for: 1, policy: .returnCacheDontLoad)
        #expect(detail?.value.phone == "one", "not expired: the server confirmed the list 2 days ago")
        #expect(detail?.age == .seconds(2 * 86_400))
    }

    /// A detail held in memory since before its list's 304 is older there than in the file,
    /// which decides.
    @Test func aDetailExpiredInMemoryIsReadFromTheFileWhereAListConfirmedIt() async throws {
        let store = try store()
        let lists = lists(over: store)
        let details = details(over: store)
        try await lists.refresh("a")
        #expect(try await details.value(for: 1, policy: .returnCacheDontLoad)?.value.phone == "one")
        clock.advance(by: 6 * 86_400)
        #expect(try await lists.refresh("a") == .notModified)
        clock.advance(by: 2 * 86_400)

        let detail = try await details.value(for: 1, policy: .returnCacheDontLoad)
        #expect(detail?.value.phone == "one", "expired in memory, 2 days old in the file")
        #expect(detail?.age == .seconds(2 * 86_400))
    }

    /// A detail stale in memory whose list a 304 confirmed since is younger in the file: read
    /// there, it is not fetched again.
    @Test func aDetailStaleInMemoryIsReadFromTheFileWhereAListConfirmedItSince() async throws {
        let store = try store()
        let lists = lists(over: store)
        let details = details(over: store)
        try await lists.refresh("a")
        #expect(try await details.value(for: 1, policy: .returnCacheDontLoad)?.value.phone == "one")
        clock.advance(by: 120)
        #expect(try await lists.refresh("a") == .notModified)
        clock.advance(by: 30)

        let detail = try await details.value(for: 1)
        #expect(detail?.value.phone == "one")
        #expect(detail?.age == .seconds(30), "stale in memory, 30 s old in the file")
        #expect(detail?.isStale == false && detail?.isRefreshing == false, "not fetched again")

        clock.advance(by: 60)
        let stale = try await details.value(for: 1)
        #expect(stale?.isStale == true && stale?.isRefreshing == true, "stale in both: served, and fetched")
    }

    /// A paging model over the store's pages of "feed", whose source serves contacts 1 and 2 on
    /// one page, or is off line.
    @MainActor func feed(over store: ElementStore<Contact>, isOnline: Bool = true)
        -> PagingListViewModel<Void, Contact, String>
    {
        PagingListViewModel(
            source: .persisted(in: store, key: "feed") { _ in
                guard isOnline else { throw URLError(.notConnectedToInternet) }
                return Page(items: [Contact(id: 1, phone: "one"), Contact(id: 2, phone: "two")], nextCursor: nil)
            })
    }

    /// A stored page is not confirmed by a 304 (it writes nothing) and joins the list however
    /// old: its elements' rows can expire while it holds them.
    @MainActor @Test func anExpiredDetailOfAnElementAStoredPageHoldsLeavesThePageWhole() async throws {
        await feed(over: try store()).refresh().completed()
        clock.advance(by: 8 * 86_400)

        #expect(try await details(over: try store()).value(for: 1, policy: .returnCacheDontLoad) == nil, "expired")

        let reopened = feed(over: try store(), isOnline: false)
        let opened = await reopened.refresh().completed()
        #expect(opened.content?.map(\.id) == [1, 2], "the stored page keeps it")
        #expect(try await details(over: try store()).value(for: 1)?.value.phone == "fetched", "the detail is fetched")
    }

    @Test func anExpiredDetailOfAnElementNoListHoldsGoes() async throws {
        let store = try store()
        try await store.save(Contact(id: 7, phone: "seven"))
        clock.advance(by: 8 * 86_400)

        #expect(try await details(over: store).value(for: 7, policy: .returnCacheDontLoad) == nil, "expired")

        clock.advance(by: -8 * 86_400)  // back to when it was saved: had it stayed, it would be fresh
        #expect(try await details(over: try self.store()).value(for: 7, policy: .returnCacheDontLoad) == nil)
    }
}
