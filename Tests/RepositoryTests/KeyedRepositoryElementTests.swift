import ContentLoadingRepository
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// Screen A shows a list, screen B edits one element and saves it: A shows the edit.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct KeyedRepositoryElementTests {
    struct Item: Identifiable, Codable, Sendable, Equatable {
        let id: Int
        var name: String
    }

    static let lists: [String: [Item]] = [
        "all": [Item(id: 1, name: "one"), Item(id: 2, name: "two"), Item(id: 3, name: "three")],
        "favourites": [Item(id: 3, name: "three"), Item(id: 2, name: "two")],
        "other": [Item(id: 4, name: "four")],
    ]

    @Test func aSavedElementReachesEveryListHoldingItInPlaceWithoutARequest() async throws {
        let loader = ControlledLoader<String, [Item]>()
        let repository = KeyedRepository<String, [Item]>(fetch: loader.load)
        for (key, list) in Self.lists { try await repository.save(list, for: key) }
        let all = record(repository.events(for: "all"))
        let favourites = record(repository.events(for: "favourites"))
        let other = record(repository.events(for: "other"))
        _ = try await all.values(count: 1)
        _ = try await favourites.values(count: 1)
        _ = try await other.values(count: 1)

        let patched = try await repository.save(element: Item(id: 2, name: "TWO"))
        #expect(Set(patched) == ["all", "favourites"])
        let allNow = try #require(try await all.values(count: 2).last?.cachedValue)
        #expect(allNow.value.map(\.name) == ["one", "TWO", "three"], "order kept")
        #expect(allNow.origin == .local)
        #expect(
            try #require(try await favourites.values(count: 2).last?.cachedValue).value.map(\.name) == ["three", "TWO"])
        #expect(other.elements.count == 1, "a list without the element hears nothing")
        #expect(loader.calls.isEmpty, "no request")
        #expect(try await repository.value(for: "all")?.value[1].name == "TWO", "a later reader gets the edit")
    }

    @Test func aFetchThatStartedBeforeTheElementSaveDoesNotUndoIt() async throws {
        let loader = ControlledLoader<String, [Item]>()
        let repository = KeyedRepository<String, [Item]>(fetch: loader.load)
        try await repository.save(Self.lists["all"]!, for: "all")
        let reader = record(repository.events(for: "all", policy: .returnCacheThenLoad))
        let fetch = try await loader.call(0)
        try await repository.save(element: Item(id: 1, name: "ONE"))
        loader.complete(fetch, returning: Self.lists["all"]!)
        await repository.fetchSettled("all")
        #expect(try await repository.value(for: "all")?.value.first?.name == "ONE")
        let names = try await reader.values(count: 2).compactMap { $0.cachedValue?.value.first?.name }
        #expect(names == ["one", "ONE"])
    }

    @Test func elementSavesInterleavedWithListWritesNeverLoseEither() async throws {
        let repository = KeyedRepository<String, [Item]>(fetch: { _ in [] })
        let base = (0..<50).map { Item(id: $0, name: "v0") }
        try await repository.save(base, for: "all")
        await withTaskGroup(of: Void.self) { group in
            for id in 0..<50 {
                group.addTask { _ = try? await repository.save(element: Item(id: id, name: "edited")) }
            }
        }
        let names = try #require(try await repository.value(for: "all")).value.map(\.name)
        #expect(names == Array(repeating: "edited", count: 50), "every concurrent element save landed")
    }

    @Test func aListAReaderKeepsIsNotChangedByALaterElementSave() async throws {
        let repository = KeyedRepository<String, [Item]>(fetch: { _ in [] })
        try await repository.save(Self.lists["all"]!, for: "all")
        let reader = record(repository.events(for: "all"))
        let kept = try #require(try await reader.values(count: 1).first?.cachedValue).value
        try await repository.save(element: Item(id: 1, name: "ONE"))
        #expect(try await reader.values(count: 2).last?.cachedValue?.value.first?.name == "ONE")
        #expect(kept.map(\.name) == ["one", "two", "three"], "the list a reader kept is a value: the edit is a copy")
        try await repository.save(element: Item(id: 1, name: "Uno"))
        #expect(try await repository.value(for: "all")?.value.first?.name == "Uno")
    }

    @Test func anElementSaveRecountsTheListsCostAndEvictsOverTheLimit() async throws {
        let memory = MemoryCache<String, [Item]>(countLimit: 10, costLimit: 20) { $0.reduce(0) { $0 + $1.name.count } }
        let repository = KeyedRepository<String, [Item]>(memory: memory, fetch: { _ in [] })
        try await repository.save(Self.lists["all"]!, for: "all")
        #expect(memory.totalCost == 11)
        try await repository.save(element: Item(id: 2, name: "TWOTWO"))
        #expect(memory.totalCost == 14)
        try await repository.save(element: Item(id: 3, name: String(repeating: "3", count: 30)))
        #expect(memory.count == 0, "a list over the cost limit leaves the memory tier")
    }

    @Test func aListOnlyOnDiskWithALiveReaderIsPatchedThere() async throws {
        let path = try temporaryCachePath()
        let disk = try DiskCache(.file(path: path))
        let memory = MemoryCache<String, [Item]>(countLimit: 10, costLimit: 2) { $0.count }
        let repository = KeyedRepository<String, [Item]>(memory: memory, disk: disk, fetch: { _ in [] })
        try await repository.save(Self.lists["all"]!, for: "all")
        #expect(memory.count == 0, "three items cost more than the memory tier keeps")
        let reader = record(repository.events(for: "all", policy: .returnCacheDontLoad))
        _ = try await reader.values(count: 1)
        #expect(try await repository.save(element: Item(id: 3, name: "THREE")) == ["all"])
        let patched = try #require(try await reader.values(count: 2).last?.cachedValue)
        #expect(patched.value.map(\.name) == ["one", "two", "THREE"])
        #expect(try await repository.value(for: "all")?.value.last?.name == "THREE", "on disk too")
    }
}
