import ContentLoadingRepository
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// A value read from the disk tier goes to memory only while nothing was written since the read
/// began, and an expired one the read removes goes only while it is still the one read: a
/// removal or a save of the key that lands meanwhile is never undone. (Before, a removal made
/// while a read was under way came back from memory, a save evicted meanwhile was replaced in
/// memory by the older value read, and a save made while an expired value was being removed
/// was removed with it.)
///
/// Each test holds the read between the file and memory: a list read that finds an element
/// row it cannot use removes that row (a write, which `DiskHold` holds) before it goes on.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct DiskPromotionTests {
    typealias Contact = ElementStoreTests.Contact

    let path: String
    init() throws { path = try temporaryCachePath() }

    /// A store whose list "a" holds contacts 1 and 2, the row of 2 not decoding.
    func storeWithAListReadsMustRepair() async throws -> (DiskCache, ElementStore<Contact>) {
        let disk = try DiskCache(.file(path: path))
        let store = ElementStore<Contact>(disk: disk)
        let writer = KeyedRepository<String, [Contact]>(elements: store) { _ in [] }
        try await writer.save([Contact(id: 1, phone: "one"), Contact(id: 2, phone: "two")], for: "a")
        try SQLiteDatabase(.file(path: path)).execute(
            #"UPDATE content_loading_elements SET value = CAST('{"id": 2}' AS BLOB) WHERE id = '2'"#)
        return (disk, store)
    }

    /// Starts a read of "a" from `lists`, waits until it is between the file and memory, runs
    /// `write`, then lets the read go on and waits for it.
    func writing(_ write: () async throws -> Void, during lists: KeyedRepository<String, [Contact]>, of disk: DiskCache)
        async throws
    {
        let hold = await DiskHold(disk)
        let reading = Task { _ = try? await lists.value(for: "a", policy: .returnCacheDontLoad) }
        await hold.writeReached()
        try await write()
        hold.release()
        await reading.value
    }

    @Test func aListRemovedWhileItWasReadDoesNotComeBackFromMemory() async throws {
        let (disk, store) = try await storeWithAListReadsMustRepair()
        let lists = KeyedRepository<String, [Contact]>(elements: store) { _ in [] }

        try await writing({ try await lists.remove("a") }, during: lists, of: disk)

        #expect(lists.cachedValue(for: "a") == nil)
        #expect(try await lists.value(for: "a", policy: .returnCacheDontLoad) == nil)
    }

    @Test func aListSavedAndEvictedWhileItWasReadIsNotReplacedInMemoryByTheValueRead() async throws {
        let (disk, store) = try await storeWithAListReadsMustRepair()
        let lists = KeyedRepository<String, [Contact]>(elements: store, memory: MemoryCache(countLimit: 1)) { _ in [] }
        let saved = [Contact(id: 3, phone: "three")]

        try await writing(
            {
                try await lists.save(saved, for: "a")
                try await lists.save([Contact(id: 4, phone: "four")], for: "b")  // evicts "a"
            }, during: lists, of: disk)

        #expect(lists.cachedValue(for: "a")?.value ?? saved == saved, "memory holds no older value")
        #expect(try await lists.value(for: "a", policy: .returnCacheDontLoad)?.value == saved)
    }

    @Test func aValueSavedWhileAnExpiredOneIsRemovedIsKept() async throws {
        let clock = TestWallClock()
        let disk = try DiskCache(.file(path: path))
        let ages = CacheAges(staleAfter: .seconds(60), expireAfter: .seconds(3_600))
        func repository() -> KeyedRepository<String, String> {
            KeyedRepository(disk: disk, ages: ages, now: { clock.now }) { _ in "fetched" }
        }
        let writer = repository()
        try await writer.save("old", for: "k")
        clock.advance(by: 7_200)
        let reader = repository()
        let hold = await DiskHold(disk)
        let reading = Task { try await reader.value(for: "k", policy: .returnCacheDontLoad) }
        await hold.writeReached()  // the expired row's removal

        try await writer.save("saved", for: "k")
        hold.release()

        #expect(try await reading.value == nil, "the expired value is no value")
        let reopened = KeyedRepository<String, String>(disk: try DiskCache(.file(path: path)), now: { clock.now }) {
            _ in "fetched"
        }
        #expect(try await reopened.value(for: "k", policy: .returnCacheDontLoad)?.value == "saved")
    }
}
