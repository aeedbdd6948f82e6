import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// `update(_:_:)`: a change of the value held, read and written back as one write of its key.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct KeyedRepositoryUpdateTests {
    typealias Contact = ElementStoreTests.Contact

    struct Refused: Error {}

    @Test func anUpdateChangesTheValueHeldAndReachesEveryReaderWithoutARequest() async throws {
        let remote = KeyedRemote()
        let repository = KeyedRepository<String, String>(fetch: remote.fetch)
        let reader = record(repository.events(for: "a"))
        #expect(try await summaries(reader, count: 1) == ["remote:a v1"])
        let updated = try await repository.update("a") { $0.map { $0 + ", edited" } }
        #expect(updated == "a v1, edited")
        #expect(try await summaries(reader, count: 2).last == "local:a v1, edited")
        #expect(remote.fetchCount == 1, "no request")
    }

    @Test func aMissingValueIsNilAndATransformThatGivesNilWritesNothing() async throws {
        let remote = KeyedRemote()
        let repository = KeyedRepository<String, String>(fetch: remote.fetch)
        let given = Locked<[String?]>([])
        let kept = try await repository.update("a") { value in
            given.withLock { $0.append(value) }
            return nil
        }
        #expect(kept == nil)
        #expect(given.withLock { $0 } == [nil])
        #expect(try await repository.value(for: "a", policy: .returnCacheDontLoad) == nil, "nothing written")
        try await repository.save("saved", for: "b")
        #expect(try await repository.update("b") { _ in nil } == "saved", "the value it was given")
        #expect(try await repository.update("a") { $0 ?? "made" } == "made")
        #expect(try await repository.value(for: "a", policy: .returnCacheDontLoad)?.value == "made")
        #expect(remote.fetchCount == 0)
    }

    /// Each update appends its number to the list on disk: every number lands, once. (With the
    /// read made outside the key's write lock, some were lost in 3 runs of 3.)
    @Test func updatesMadeSideBySideAllLand() async throws {
        let repository = KeyedRepository<String, [Int]>(disk: try DiskCache(.file(path: try temporaryCachePath()))) {
            _ in []
        }
        try await repository.save([], for: "k")
        await withThrowingTaskGroup { group in
            for number in 0..<200 {
                group.addTask { try await repository.update("k") { ($0 ?? []) + [number] } }
            }
        }
        let numbers = try #require(try await repository.value(for: "k", policy: .returnCacheDontLoad)?.value)
        #expect(numbers.sorted() == Array(0..<200))
    }

    @Test func aTransformThatThrowsWritesNothingAndItsReadersHearNothing() async throws {
        let repository = KeyedRepository<String, String>(fetch: KeyedRemote().fetch)
        try await repository.save("saved", for: "a")
        let reader = record(repository.events(for: "a", policy: .returnCacheDontLoad))
        #expect(try await summaries(reader, count: 1) == ["memory:saved"])
        await #expect(throws: Refused.self) { try await repository.update("a") { _ in throw Refused() } }
        #expect(try await repository.value(for: "a", policy: .returnCacheDontLoad)?.value == "saved")
        try await repository.save("again", for: "a")
        #expect(try await summaries(reader, count: 2) == ["memory:saved", "local:again"], "no error came between")
    }

    @Test func anUpdateAfterARelaunchChangesTheStoredValue() async throws {
        let path = try temporaryCachePath()
        func launch() throws -> KeyedRepository<String, [Int]> {
            KeyedRepository(disk: try DiskCache(.file(path: path))) { _ in [] }
        }
        try await launch().save([1, 2], for: "k")
        #expect(try await launch().update("k") { $0.map { $0 + [3] } } == [1, 2, 3])
        #expect(try await launch().value(for: "k", policy: .returnCacheDontLoad)?.value == [1, 2, 3])
    }

    @Test func anExpiredValueIsNotGivenToTheTransform() async throws {
        let clock = TestWallClock()
        let repository = KeyedRepository<String, String>(
            disk: try DiskCache(.file(path: try temporaryCachePath())),
            ages: CacheAges(staleAfter: .seconds(60), expireAfter: .seconds(600)), now: { [clock] in clock.now }
        ) { _ in "fetched" }
        try await repository.save("old", for: "a")
        clock.advance(by: 300)
        #expect(try await repository.update("a") { $0.map { $0 + "+" } } == "old+", "a stale one is")
        clock.advance(by: 700)
        #expect(try await repository.update("a") { $0.map { $0 + "+" } } == nil)
    }

    /// Over an element store, the list written back is stored as any list: one row per element,
    /// which every list holding it shows.
    @Test func anUpdateOfAListOverAnElementStoreReachesTheOtherListsHoldingItsElements() async throws {
        let path = try temporaryCachePath()
        let lists = KeyedRepository<String, [Contact]>(elements: ElementStore(disk: try DiskCache(.file(path: path)))) {
            _ in []
        }
        try await lists.save([Contact(id: 1, phone: "one"), Contact(id: 2, phone: "two")], for: "all")
        try await lists.save([Contact(id: 2, phone: "two")], for: "favourites")
        let favourites = record(lists.events(for: "favourites", policy: .returnCacheDontLoad))
        _ = try await favourites.values(count: 1)
        try await lists.update("all") { contacts in
            contacts?.map { Contact(id: $0.id, phone: $0.id == 2 ? "two, edited" : $0.phone) }
        }
        let shown = try await favourites.values(count: 2).last?.cachedValue?.value
        #expect(shown == [Contact(id: 2, phone: "two, edited")])
        let relaunched = KeyedRepository<String, [Contact]>(
            elements: ElementStore(disk: try DiskCache(.file(path: path)))
        ) { _ in [] }
        #expect(
            try await relaunched.value(for: "favourites", policy: .returnCacheDontLoad)?.value == [
                Contact(id: 2, phone: "two, edited")
            ])
    }

    /// A list holding an element row that does not decode: the update is not made on what is
    /// left of it without a word. The read removed the row (as every read does), so the next
    /// update works on the rest.
    @Test func aStoredListThatCannotBeReadWholeIsAnErrorAndTheTransformIsNotCalled() async throws {
        let path = try temporaryCachePath()
        func launch() throws -> KeyedRepository<String, [Contact]> {
            KeyedRepository(elements: ElementStore(disk: try DiskCache(.file(path: path)))) { _ in [] }
        }
        try await launch().save([Contact(id: 1, phone: "one"), Contact(id: 2, phone: "two")], for: "a")
        try SQLiteDatabase(.file(path: path))
            .execute("UPDATE content_loading_elements SET value = X'7B7D' WHERE id = '2'")
        let repository = try launch()
        let called = Locked(false)
        let error = await #expect(throws: CacheError.self) {
            try await repository.update("a") { contacts in
                called.withLock { $0 = true }
                return contacts
            }
        }
        #expect(error?.description.contains("its element 2 does not decode") == true)
        #expect(!called.withLock { $0 })
        let updated = try await repository.update("a") { $0.map { $0 + [Contact(id: 3, phone: "three")] } }
        #expect(updated?.map(\.id) == [1, 3])
    }
}
