import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// Keys, single flight, saves that reach every reader, and writes that win over older fetches.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct KeyedRepositoryWriteTests {
    @Test func anEncodableKeyIsStoredUnderItsSortedJSON() {
        #expect(SearchKey(query: "tea", page: 2).persistentKey == #"{"page":2,"query":"tea"}"#)
        #expect("a/b".persistentKey == "a/b", "a string is stored as it is, not JSON-quoted")
        #expect(42.persistentKey == "42")
    }

    @Test func aThousandConcurrentReadsOfOneKeyMakeOneFetch() async throws {
        let loader = ControlledLoader<String, String>()
        let repository = KeyedRepository<String, String>(fetch: loader.load)
        let reads = (0..<1_000).map { _ in Task { try await repository.value(for: "a")?.value } }
        loader.complete(try await loader.call(0), returning: "A")
        for read in reads { #expect(try await read.value == "A") }
        #expect(loader.calls.count == 1)
    }

    @Test func differentKeysAreFetchedInParallel() async throws {
        let loader = ControlledLoader<String, String>()
        let repository = KeyedRepository<String, String>(fetch: loader.load)
        let a = Task { try await repository.value(for: "a")?.value }
        let b = Task { try await repository.value(for: "b")?.value }
        let first = try await loader.call(0)
        let second = try await loader.call(1)  // both fetches are open at once
        #expect(Set([first.input, second.input]) == ["a", "b"])
        loader.complete(first, returning: first.input.uppercased())
        loader.complete(second, returning: second.input.uppercased())
        #expect(try await a.value == "A")
        #expect(try await b.value == "B")
    }

    @Test func aSaveReachesEveryReaderOfItsKeyAtOnceWithoutARequest() async throws {
        let remote = KeyedRemote()
        let repository = KeyedRepository<String, String>(fetch: remote.fetch)
        let first = record(repository.events(for: "a"))
        _ = try await first.values(count: 1)
        // NB: the second read revalidates; its fetch's result reaches both readers first.
        let second = record(repository.events(for: "a", policy: .returnCacheThenLoad))
        let other = record(repository.events(for: "b"))
        #expect(try await summaries(first, count: 2) == ["remote:a v1", "remote:a v2"])
        #expect(try await summaries(second, count: 2) == ["memory:a v1", "remote:a v2"])
        _ = try await other.values(count: 1)
        await repository.fetchSettled("a")
        let fetches = remote.fetchCount
        try await repository.save("edited", for: "a")
        #expect(try await summaries(first, count: 3).last == "local:edited")
        #expect(try await summaries(second, count: 3).last == "local:edited")
        #expect(other.elements.count == 1, "another key's reader hears nothing")
        #expect(remote.fetchCount == fetches)
    }

    @Test func removeInvalidateAndInvalidateAll() async throws {
        let remote = KeyedRemote()
        let repository = KeyedRepository<String, String>(fetch: remote.fetch)
        let reader = record(repository.events(for: "a"))
        #expect(try await summaries(reader, count: 1) == ["remote:a v1"])
        try await repository.remove("a")
        #expect(try await summaries(reader, count: 2).last == "noValue")
        #expect(try await repository.value(for: "a", policy: .returnCacheDontLoad) == nil)
        repository.invalidate("a")  // a live reader: fetched again
        #expect(try await summaries(reader, count: 3).last == "remote:a v2")
        repository.invalidateAll()
        #expect(try await summaries(reader, count: 4).last == "remote:a v3")
        try await repository.save("b", for: "b")
        repository.invalidateAll()  // no reader of "b": marked stale, not fetched
        let stale = try #require(try await repository.value(for: "b", policy: .returnCacheDontLoad))
        #expect(stale.isStale)
        #expect(remote.fetchCount(of: "b") == 0)
    }

    @Test func aFetchThatStartedBeforeASaveNeverOverwritesIt() async throws {
        let loader = ControlledLoader<String, String>()
        let repository = KeyedRepository<String, String>(fetch: loader.load)
        let reader = record(repository.events(for: "a", policy: .reloadIgnoringCache))
        let fetch = try await loader.call(0)  // held open by the test
        try await repository.save("saved", for: "a")
        #expect(try await summaries(reader, count: 1) == ["local:saved"])
        #expect(repository.isFetching("a"))
        loader.complete(fetch, returning: "fetched before the save")
        await repository.fetchSettled("a")
        #expect(try await repository.value(for: "a", policy: .returnCacheDontLoad)?.value == "saved")
        #expect(reader.elements.map(\.summary) == ["local:saved"])
    }
}

/// A repository of `Equatable` values compares a fetch with the cached value.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct UnchangedFetchTests {
    let clock = TestWallClock()

    @Test func anEqualFetchWritesNothingRestartsTheAgeOnDiskAndEndsTheRefreshing() async throws {
        let path = try temporaryCachePath()
        let ages = CacheAges(staleAfter: .seconds(60), expireAfter: .seconds(600))
        let repository = KeyedRepository<String, String>(
            disk: try DiskCache(.file(path: path)), ages: ages, now: { [clock] in clock.now }
        ) { _ in "same" }
        try await repository.save("same", for: "k")
        clock.advance(by: 500)
        let events = record(repository.events(for: "k", policy: .returnCacheThenLoad))
        let delivered = try await events.values(count: 2).compactMap(\.cachedValue)
        #expect(delivered.map(\.value) == ["same", "same"])
        #expect(delivered.map(\.isRefreshing) == [true, false], "the second says the fetch is over")
        #expect(delivered[1].origin == .remote)
        #expect(delivered[1].age == .zero)
        #expect(try await repository.refresh("k") == .notModified)
        clock.advance(by: 500)
        let restarted = KeyedRepository<String, String>(
            disk: try DiskCache(.file(path: path)), ages: ages, now: { [clock] in clock.now }
        ) { _ in "fetched" }
        let cached = try #require(try await restarted.value(for: "k", policy: .returnCacheDontLoad))
        #expect(cached.age == .seconds(500), "the confirmation reset the age on disk")
    }

    @Test func aReaderThatWasNotWaitingGetsNothingNew() async throws {
        let repository = KeyedRepository<String, String> { _ in "same" }
        try await repository.save("same", for: "k")
        let events = record(repository.events(for: "k", policy: .returnCacheDontLoad))
        #expect(try await summaries(events, count: 1) == ["memory:same"])
        #expect(try await repository.refresh("k") == .notModified)
        try await repository.save("edited", for: "k")
        #expect(try await summaries(events, count: 2) == ["memory:same", "local:edited"])
    }
}
