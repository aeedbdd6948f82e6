import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// `ElementStore.update(id:_:)`: one element read and written back in one transaction of the
/// file, shared as a save is.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct ElementStoreUpdateTests {
    typealias Contact = ElementStoreTests.Contact

    struct Refused: Error {}

    @Test func anUpdateReachesEveryListAndDetailHoldingTheElementAndTheFile() async throws {
        let path = try temporaryCachePath()
        let store = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        let remote = Locked(0)
        let lists = KeyedRepository<String, [Contact]>(elements: store) { _ in
            remote.withLock { $0 += 1 }
            return []
        }
        let details = KeyedRepository<Int, Contact>(elements: store) { id in
            remote.withLock { $0 += 1 }
            return Contact(id: id, phone: "fetched")
        }
        try await lists.save([Contact(id: 1, phone: "one"), Contact(id: 2, phone: "two")], for: "all")
        let list = record(lists.events(for: "all", policy: .returnCacheDontLoad))
        let detail = record(details.events(for: 1, policy: .returnCacheDontLoad))
        _ = try await list.values(count: 1)
        _ = try await detail.values(count: 1)
        let updated = try await store.update(id: 1) { $0.map { Contact(id: $0.id, phone: $0.phone + ", edited") } }
        #expect(updated == Contact(id: 1, phone: "one, edited"))
        #expect(
            try await list.values(count: 2).last?.cachedValue?.value == [
                Contact(id: 1, phone: "one, edited"), Contact(id: 2, phone: "two"),
            ])
        #expect(try await detail.values(count: 2).last?.cachedValue?.value == Contact(id: 1, phone: "one, edited"))
        #expect(remote.withLock { $0 } == 0, "no request")
        let relaunched = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        #expect(try await relaunched.element(id: 1) == Contact(id: 1, phone: "one, edited"))
    }

    @Test func aMissingElementIsNilAndATransformThatGivesNilWritesNothing() async throws {
        let store = ElementStore<Contact>(disk: try DiskCache(.file(path: try temporaryCachePath())))
        let given = Locked<[Contact?]>([])
        let kept = try await store.update(id: 1) { contact in
            given.withLock { $0.append(contact) }
            return nil
        }
        #expect(kept == nil)
        #expect(given.withLock { $0 } == [nil])
        #expect(try await store.element(id: 1) == nil, "nothing written")
        try await store.save(Contact(id: 2, phone: "two"))
        #expect(try await store.update(id: 2) { _ in nil } == Contact(id: 2, phone: "two"), "the one it was given")
        #expect(try await store.update(id: 1) { $0 ?? Contact(id: 1, phone: "made") } == Contact(id: 1, phone: "made"))
        #expect(try await store.element(id: 1) == Contact(id: 1, phone: "made"))
    }

    /// Another connection saves the element after the update began and before its
    /// transaction: the transform is given that save, which is not written over.
    @Test func aSaveByAnotherConnectionBeforeTheWriteIsWhatTheTransformIsGiven() async throws {
        let path = try temporaryCachePath()
        let disk = try DiskCache(.file(path: path))
        let store = ElementStore<Contact>(disk: disk)
        let other = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        try await store.save(Contact(id: 1, phone: "one"))
        let saved = await interpose(on: disk, beforeTheWriteOf: "|1") {
            try await other.save(Contact(id: 1, phone: "ONE"))
        }
        let updated = try await store.update(id: 1) { $0.map { Contact(id: $0.id, phone: $0.phone + "+") } }
        await disk.setWriteFault(nil)
        #expect(saved.withLock { $0 })
        #expect(updated == Contact(id: 1, phone: "ONE+"))
        #expect(try await other.element(id: 1) == Contact(id: 1, phone: "ONE+"))
    }

    /// Two stores on two connections to one file update one element side by side: every
    /// append lands, once.
    @Test func updatesFromTwoConnectionsToOneFileAllLand() async throws {
        let path = try temporaryCachePath()
        let first = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        let second = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        try await first.save(Contact(id: 1, phone: ""))
        await withThrowingTaskGroup { group in
            for number in 0..<50 {
                group.addTask {
                    try await first.update(id: 1) { $0.map { Contact(id: 1, phone: $0.phone + " a\(number)") } }
                }
                group.addTask {
                    try await second.update(id: 1) { $0.map { Contact(id: 1, phone: $0.phone + " b\(number)") } }
                }
            }
        }
        let phone = try #require(try await first.element(id: 1)).phone
        let appended = phone.split(separator: " ").map(String.init)
        #expect(appended.count == 100)
        #expect(Set(appended) == Set((0..<50).flatMap { ["a\($0)", "b\($0)"] }))
    }

    /// What a transform returns is checked as a save's element is, and its error is thrown as
    /// it is: nothing is written either way, and the readers hear nothing.
    @Test func anotherIdOrATransformErrorWritesNothing() async throws {
        let store = ElementStore<Contact>(disk: try DiskCache(.file(path: try temporaryCachePath())))
        let details = KeyedRepository<Int, Contact>(elements: store) { id in Contact(id: id, phone: "fetched") }
        try await store.save(Contact(id: 1, phone: "one"))
        let detail = record(details.events(for: 1, policy: .returnCacheDontLoad))
        _ = try await detail.values(count: 1)
        let error = await #expect(throws: CacheError.self) {
            try await store.update(id: 1) { _ in Contact(id: 2, phone: "two") }
        }
        #expect(error?.description.contains("the element 2, not this one") == true)
        await #expect(throws: Refused.self) { try await store.update(id: 1) { _ in throw Refused() } }
        #expect(try await store.element(id: 1) == Contact(id: 1, phone: "one"))
        #expect(try await store.element(id: 2) == nil)
        try await store.save(Contact(id: 1, phone: "again"))
        #expect(
            try await detail.values(count: 2).map { $0.cachedValue?.value.phone } == ["one", "again"],
            "nothing came between")
    }
}
