import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// Element changes reach their readers in any order (each writer shares its own, and one may
/// wait on a listener that another passes): a reader keeps the newest change of each element,
/// whatever came first, and an older change of one element never hides a newer one of another.
///
/// Each test holds a change on its way: a repository over the store that hears changes before
/// the others has a key whose write lock a held (then failed) save keeps, so a change of an
/// element that key holds waits there while a later change passes.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct ElementChangeOrderTests {
    typealias Contact = ElementStoreTests.Contact

    struct HeldWriteFailed: Error {}

    /// The store and, in the order they hear changes: details, a repository whose key "x"
    /// holds `held`, and the lists under test (`lists`: what each key fetches).
    struct World {
        let disk: DiskCache
        let store: ElementStore<Contact>
        let details: KeyedRepository<Int, Contact>
        let blocker: KeyedRepository<String, [Contact]>
        let lists: KeyedRepository<String, [Contact]>

        init(held: [Contact], lists served: [String: [Contact]]) async throws {
            disk = try DiskCache(.file(path: try temporaryCachePath()))
            store = ElementStore<Contact>(disk: disk)
            details = KeyedRepository<Int, Contact>(elements: store) { id in Contact(id: id, phone: "fetched") }
            blocker = KeyedRepository<String, [Contact]>(elements: store) { _ in held }
            lists = KeyedRepository<String, [Contact]>(elements: store) { key in served[key] ?? [] }
            try await blocker.refresh("x")
            for key in served.keys.sorted() { try await lists.refresh(key) }
        }

        /// Holds the next write, a save of "x" that keeps its write lock, and returns it.
        func holdX(_ value: [Contact]) async -> (DiskHold, Task<Void, Never>) {
            let hold = await DiskHold(disk)
            let save = Task { [blocker] in _ = try? await blocker.save(value, for: "x") }
            await hold.writeReached()
            return (hold, save)
        }
    }

    @Test func anOlderChangeOfOneElementReachesAListAfterANewerChangeOfAnother() async throws {
        let two = Contact(id: 2, phone: "two")
        let world = try await World(
            held: [two], lists: ["all": [Contact(id: 1, phone: "one"), two, Contact(id: 3, phone: "three")]])
        let detail = record(world.details.events(for: 2, policy: .returnCacheDontLoad))
        let all = record(world.lists.events(for: "all"))
        _ = try await detail.values(count: 1)
        _ = try await all.values(count: 1)
        let (hold, heldSave) = await world.holdX([two])

        // The save of 2 is written first; it reaches the details, then waits for "x".
        let older = Task { [store = world.store] in try await store.save(Contact(id: 2, phone: "A")) }
        #expect(try await detail.values(count: 2).last?.cachedValue?.value.phone == "A")
        try await world.store.save(Contact(id: 1, phone: "B"))
        #expect(try await all.values(count: 2).last?.cachedValue?.value.map(\.phone) == ["B", "two", "three"])

        hold.release(failing: HeldWriteFailed())
        await heldSave.value
        try await older.value
        let shown = try await world.lists.value(for: "all", policy: .returnCacheDontLoad)?.value
        #expect(shown?.map(\.phone) == ["B", "A", "three"], "the older change of another element is shown")
        #expect(
            try await all.values(count: 3).last?.cachedValue?.value.map(\.phone) == ["B", "A", "three"],
            "the reader, given the newer change's version, gets it too")
    }

    @Test func anOlderChangeOfAnElementThatComesAfterANewerOneIsLeftOutEverywhere() async throws {
        let (two, three) = (Contact(id: 2, phone: "two"), Contact(id: 3, phone: "three"))
        let world = try await World(
            held: [three],
            lists: ["all": [Contact(id: 1, phone: "one"), two, three], "pair": [three, two]])
        let feed = PagingListViewModel(
            source: .persisted(in: world.store, key: "feed") { _ in Page<Contact, String>(items: [two], nextCursor: nil)
            })
        await feed.refresh().completed()
        let detail = record(world.details.events(for: 2, policy: .returnCacheDontLoad))
        _ = try await detail.values(count: 1)
        let (hold, heldSave) = await world.holdX([three])

        // The list fetch of "pair" writes the server's 2 first; it reaches the details, then
        // waits for "x" (which holds 3); a save of 2 comes after it and passes.
        let serverPair = [three, Contact(id: 2, phone: "server")]
        let older = Task { [lists = world.lists] in try await lists.save(serverPair, for: "pair") }
        #expect(try await detail.values(count: 2).last?.cachedValue?.value.phone == "server")
        try await world.store.save(Contact(id: 2, phone: "saved"))
        #expect(try await detail.values(count: 3).last?.cachedValue?.value.phone == "saved")

        hold.release(failing: HeldWriteFailed())
        await heldSave.value
        try await older.value
        #expect(try await world.store.element(id: 2)?.phone == "saved")
        let all = try await world.lists.value(for: "all", policy: .returnCacheDontLoad)?.value
        #expect(all?.map(\.phone) == ["one", "saved", "three"])
        #expect(feed.items.map(\.phone) == ["saved"])
        #expect(try await world.details.value(for: 2, policy: .returnCacheDontLoad)?.value.phone == "saved")
        #expect(detail.elements.count == 3, "the detail's reader got nothing after the save")
    }
}
