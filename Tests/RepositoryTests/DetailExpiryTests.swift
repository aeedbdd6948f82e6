import ContentLoading
import ContentLoadingRepository
import Foundation
import Testing

/// A detail whose element row has expired is a miss, and its copy goes, but not the element:
/// the lists that hold it keep it. A list a 304 confirmed gives its age to the rows of its
/// elements no newer than it; a row saved after the list keeps its own, so it may be older than
/// the list. (Before, a detail read of such an element removed it from every list that held
/// it, silently; and a 304 left every element's row as old as it was, so a detail opened from a
/// list confirmed a minute ago could be a week old, or expired.)
@Suite(.timeLimit(.minutes(1)))
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

    @Test func anExpiredDetailOfAnElementAListHoldsLeavesTheListWhole() async throws {
        let store = try store()
        let lists = lists(over: store)
        try await lists.refresh("a")
        try await store.save(Contact(id: 1, phone: "saved"))  // NB: newer than the list: not confirmed with it
        clock.advance(by: 6 * 86_400)
        #expect(try await lists.refresh("a") == .notModified)
        clock.advance(by: 2 * 86_400)  // the list is 2 days old, the saved element's row 8

        #expect(try await details(over: store).value(for: 1, policy: .returnCacheDontLoad) == nil, "expired")

        let reopened = try self.store()
        let list = try await self.lists(over: reopened).value(for: "a", policy: .returnCacheDontLoad)
        #expect(list?.value.map(\.id) == [1, 2], "the list keeps it")
        #expect(list?.age == .seconds(2 * 86_400))
        #expect(try await details(over: reopened).value(for: 1)?.value.phone == "fetched", "the detail is fetched")
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
