import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// `update(_:_:)` (and `save(element:)`'s patch of lists stored whole) against writes that do
/// not take its key's write lock: another connection to the file (another repository's,
/// another process's) and, over an element store, saves of one element. The update reads the
/// stored value and writes its result in one transaction of the file, so such a write lands
/// either before the read (the transform is given it) or after the write; it is never
/// overwritten by a value read before it.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct KeyedRepositoryUpdateRaceTests {
    typealias Contact = ElementStoreTests.Contact

    /// Another connection saves the key after the update read it into memory and before it
    /// wrote: the transform is given that save, which is not lost. (Given the value read
    /// before, the update wrote `one+` over `other`.)
    @Test func aSaveByAnotherConnectionBeforeTheWriteIsWhatTheTransformIsGiven() async throws {
        let path = try temporaryCachePath()
        let disk = try DiskCache(.file(path: path))
        let repository = KeyedRepository<String, String>(disk: disk) { _ in "fetched" }
        let other = KeyedRepository<String, String>(disk: try DiskCache(.file(path: path))) { _ in "fetched" }
        try await repository.save("one", for: "a")
        let reader = record(repository.events(for: "a", policy: .returnCacheDontLoad))
        #expect(try await summaries(reader, count: 1) == ["memory:one"])
        let saved = await interpose(on: disk, beforeTheWriteOf: "|a") {
            try await other.save("other", for: "a")
        }
        let updated = try await repository.update("a") { ($0 ?? "") + "+" }
        await disk.setWriteFault(nil)
        #expect(saved.withLock { $0 })
        #expect(updated == "other+")
        #expect(try await summaries(reader, count: 2).last == "local:other+")
        let relaunched = KeyedRepository<String, String>(disk: try DiskCache(.file(path: path))) { _ in "fetched" }
        #expect(try await relaunched.value(for: "a", policy: .returnCacheDontLoad)?.value == "other+")
    }

    /// Two repositories on two connections to one file update one key side by side: every
    /// append lands, once.
    @Test func updatesFromTwoConnectionsToOneFileAllLand() async throws {
        let path = try temporaryCachePath()
        let first = KeyedRepository<String, [Int]>(disk: try DiskCache(.file(path: path))) { _ in [] }
        let second = KeyedRepository<String, [Int]>(disk: try DiskCache(.file(path: path))) { _ in [] }
        try await first.save([], for: "k")
        _ = try await second.value(for: "k", policy: .returnCacheDontLoad)
        await withThrowingTaskGroup { group in
            for number in 0..<100 {
                group.addTask { try await first.update("k") { ($0 ?? []) + [number] } }
                group.addTask { try await second.update("k") { ($0 ?? []) + [100 + number] } }
            }
        }
        let relaunched = KeyedRepository<String, [Int]>(disk: try DiskCache(.file(path: path))) { _ in [] }
        let numbers = try #require(try await relaunched.value(for: "k", policy: .returnCacheDontLoad)?.value)
        #expect(numbers.sorted() == Array(0..<200))
    }

    /// Over an element store: an element saved (through another connection's store) after the
    /// update read the list and before it wrote stays saved, in the file and for the list's
    /// readers, and the update's own change lands with it. (Written from the list read before,
    /// the update put the element back as it was.)
    @Test func anElementSavedBeforeTheWriteOfAListUpdateStaysSaved() async throws {
        let path = try temporaryCachePath()
        let disk = try DiskCache(.file(path: path))
        let lists = KeyedRepository<String, [Contact]>(elements: ElementStore(disk: disk)) { _ in [] }
        let otherStore = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        try await lists.save([Contact(id: 1, phone: "one"), Contact(id: 2, phone: "two")], for: "a")
        let reader = record(lists.events(for: "a", policy: .returnCacheDontLoad))
        _ = try await reader.values(count: 1)
        let saved = await interpose(on: disk, beforeTheWriteOf: "|a") {
            try await otherStore.save(Contact(id: 1, phone: "ONE"))
        }
        let updated = try await lists.update("a") { $0.map { $0 + [Contact(id: 3, phone: "three")] } }
        await disk.setWriteFault(nil)
        let expected = [Contact(id: 1, phone: "ONE"), Contact(id: 2, phone: "two"), Contact(id: 3, phone: "three")]
        #expect(saved.withLock { $0 })
        #expect(updated == expected)
        #expect(try await reader.values(count: 2).last?.cachedValue?.value == expected)
        let relaunched = KeyedRepository<String, [Contact]>(
            elements: ElementStore(disk: try DiskCache(.file(path: path)))
        ) { _ in [] }
        #expect(try await relaunched.value(for: "a", policy: .returnCacheDontLoad)?.value == expected)
    }

    /// Over one element store in one process: element saves made through the store side by side
    /// with updates that append to a list holding those elements. Every save and every append
    /// lands, in the file and for the list's reader.
    @Test func elementSavesSideBySideWithListUpdatesAllLand() async throws {
        let path = try temporaryCachePath()
        let store = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        let lists = KeyedRepository<String, [Contact]>(elements: store) { _ in [] }
        let initial = (0..<40).map { Contact(id: $0, phone: "initial") }
        try await lists.save(initial, for: "a")
        let reader = record(lists.events(for: "a", policy: .returnCacheDontLoad))
        _ = try await reader.values(count: 1)
        await withThrowingTaskGroup { group in
            for number in 0..<40 {
                group.addTask { try await store.save(Contact(id: number, phone: "saved")) }
                group.addTask {
                    try await lists.update("a") { ($0 ?? []) + [Contact(id: 100 + number, phone: "added")] }
                }
            }
        }
        let expected =
            (0..<40).map { Contact(id: $0, phone: "saved") }
            + (100..<140).map { Contact(id: $0, phone: "added") }
        let relaunched = KeyedRepository<String, [Contact]>(
            elements: ElementStore(disk: try DiskCache(.file(path: path)))
        ) { _ in [] }
        let stored = try #require(try await relaunched.value(for: "a", policy: .returnCacheDontLoad)?.value)
        #expect(stored.sorted { $0.id < $1.id } == expected)
        let shown = try #require(try await lists.value(for: "a", policy: .returnCacheDontLoad)?.value)
        #expect(shown.sorted { $0.id < $1.id } == expected, "memory shows what the file holds")
    }

    /// Of one element by id (a detail): a save of the element by a list written through another
    /// connection after the update read the element and before it wrote is what the transform
    /// is given. (Given the element read before, the update wrote `one+` over `ONE`.)
    @Test func aDetailUpdateIsGivenTheElementAListWroteBeforeItsWrite() async throws {
        let path = try temporaryCachePath()
        let disk = try DiskCache(.file(path: path))
        let details = KeyedRepository<Int, Contact>(elements: ElementStore(disk: disk)) { id in
            Contact(id: id, phone: "fetched")
        }
        let otherLists = KeyedRepository<String, [Contact]>(
            elements: ElementStore(disk: try DiskCache(.file(path: path)))
        ) { _ in [] }
        try await details.save(Contact(id: 1, phone: "one"), for: 1)
        let reader = record(details.events(for: 1, policy: .returnCacheDontLoad))
        _ = try await reader.values(count: 1)
        let saved = await interpose(on: disk, beforeTheWriteOf: "|1") {
            try await otherLists.save([Contact(id: 1, phone: "ONE")], for: "all")
        }
        let updated = try await details.update(1) { $0.map { Contact(id: $0.id, phone: $0.phone + "+") } }
        await disk.setWriteFault(nil)
        #expect(saved.withLock { $0 })
        #expect(updated == Contact(id: 1, phone: "ONE+"))
        #expect(try await reader.values(count: 2).last?.cachedValue?.value == Contact(id: 1, phone: "ONE+"))
        let relaunched = KeyedRepository<Int, Contact>(
            elements: ElementStore(disk: try DiskCache(.file(path: path)))
        ) { id in Contact(id: id, phone: "fetched") }
        #expect(
            try await relaunched.value(for: 1, policy: .returnCacheDontLoad)?.value == Contact(id: 1, phone: "ONE+"))
    }

    /// A transform's error is thrown as it is, and what a transform returns is checked as a
    /// save's value is: an element under another id is an error naming both, and nothing is
    /// written.
    @Test func aDetailUpdateThatReturnsAnotherElementWritesNothing() async throws {
        let details = KeyedRepository<Int, Contact>(
            elements: ElementStore(disk: try DiskCache(.file(path: try temporaryCachePath())))
        ) { id in Contact(id: id, phone: "fetched") }
        try await details.save(Contact(id: 1, phone: "one"), for: 1)
        let error = await #expect(throws: CacheError.self) {
            try await details.update(1) { _ in Contact(id: 2, phone: "two") }
        }
        #expect(error?.description.contains("the element 2, not this one") == true)
        #expect(try await details.value(for: 1, policy: .returnCacheDontLoad)?.value == Contact(id: 1, phone: "one"))
        #expect(try await details.value(for: 2, policy: .returnCacheDontLoad) == nil)
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await details.update(1) { _ in throw Refused() } }
    }

    /// Lists stored whole on disk: another connection saves a list with one more element after
    /// an element save of this repository found the list in memory and before it wrote the
    /// patched list. The patch is made on the list the file holds, so the added element stays.
    /// (Patched in memory's copy and written whole, the list lost it.)
    @Test func anElementSaveOfAListStoredWholeKeepsAListSavedByAnotherConnectionMeanwhile() async throws {
        let path = try temporaryCachePath()
        let disk = try DiskCache(.file(path: path))
        let lists = KeyedRepository<String, [Contact]>(disk: disk) { _ in [] }
        let other = KeyedRepository<String, [Contact]>(disk: try DiskCache(.file(path: path))) { _ in [] }
        try await lists.save([Contact(id: 1, phone: "one"), Contact(id: 2, phone: "two")], for: "a")
        let reader = record(lists.events(for: "a", policy: .returnCacheDontLoad))
        _ = try await reader.values(count: 1)
        let saved = await interpose(on: disk, beforeTheWriteOf: "|a") {
            try await other.save(
                [Contact(id: 1, phone: "one"), Contact(id: 2, phone: "two"), Contact(id: 3, phone: "three")], for: "a")
        }
        #expect(try await lists.save(element: Contact(id: 2, phone: "TWO")) == ["a"])
        await disk.setWriteFault(nil)
        let expected = [Contact(id: 1, phone: "one"), Contact(id: 2, phone: "TWO"), Contact(id: 3, phone: "three")]
        #expect(saved.withLock { $0 })
        #expect(try await reader.values(count: 2).last?.cachedValue?.value == expected)
        let relaunched = KeyedRepository<String, [Contact]>(disk: try DiskCache(.file(path: path))) { _ in [] }
        #expect(try await relaunched.value(for: "a", policy: .returnCacheDontLoad)?.value == expected)
    }
}
