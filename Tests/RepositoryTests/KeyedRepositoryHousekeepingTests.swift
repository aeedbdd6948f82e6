import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// Emptying a repository, closing its disk file, comparing its events, and seeing who waits.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct KeyedRepositoryHousekeepingTests {
    let path: String

    init() throws { path = try temporaryCachePath() }

    @Test func removeAllEmptiesBothTiersAndTellsEveryReader() async throws {
        let repository = KeyedRepository<String, String>(disk: try DiskCache(.file(path: path))) { "fetched \($0)" }
        try await repository.save("a", for: "a")
        try await repository.save("b", for: "b")
        let reader = record(repository.events(for: "a", policy: .returnCacheDontLoad))
        _ = try await reader.values(count: 1)
        try await repository.removeAll()
        #expect(try await summaries(reader, count: 2).last == "noValue")
        #expect(repository.memory.count == 0)
        #expect(try await repository.disk?.keysByAccess() == [])
        try await repository.save("again", for: "a")
        #expect(try await summaries(reader, count: 3).last == "local:again")
    }

    @Test func aClosedDiskCacheIsAnErrorNotACrash() async throws {
        let disk = try DiskCache(.file(path: path))
        let repository = KeyedRepository<String, String>(memory: MemoryCache(countLimit: 1, costLimit: 0), disk: disk) {
            "fetched \($0)"
        }
        try await repository.save("kept", for: "a")
        await disk.close()
        await disk.close()  // twice does nothing
        let error = await #expect(throws: CacheError.self) { try await repository.value(for: "a") }
        #expect(error?.description.contains("closed") == true)
        #expect(
            try await KeyedRepository<String, String>(disk: try DiskCache(.file(path: path))) { $0 }
                .value(for: "a", policy: .returnCacheDontLoad)?.value == "kept", "the file is intact")
    }

    @Test func eventsAndValuesCompareWhenTheirValuesDo() {
        let value = CachedValue(value: 1, origin: .disk, age: .seconds(2), isStale: false)
        #expect(CacheEvent.value(value) == .value(value))
        #expect(CacheEvent<Int>.noValue == .noValue)
        #expect(
            CacheEvent.value(value) != .value(CachedValue(value: 1, origin: .memory, age: .seconds(2), isStale: false)))
        struct Failure: Error, Equatable { let code: Int }
        #expect(CacheEvent<Int>.error(Failure(code: 1)) == .error(Failure(code: 1)))
        #expect(CacheEvent<Int>.error(Failure(code: 1)) != .error(Failure(code: 2)))
    }

    @Test func aScreenCanSeeWhetherAKeyIsFetchedAndWhoWaits() async throws {
        let loader = ControlledLoader<String, String>()
        let repository = KeyedRepository<String, String>(fetch: loader.load)
        #expect(repository.waitingCallers(for: "k") == 0)
        let first = Task { try await repository.refresh("k") }
        let second = Task { try await repository.refresh("k") }
        let call = try await loader.call(0)
        while repository.waitingCallers(for: "k") < 2 { await Task.yield() }
        #expect(repository.isFetching("k"))
        loader.complete(call, returning: "v")
        _ = try await (first.value, second.value)
        #expect(!repository.isFetching("k"))
        #expect(repository.waitingCallers(for: "k") == 0)
    }
}
