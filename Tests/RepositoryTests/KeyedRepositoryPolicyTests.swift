import ContentLoadingRepository
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// Each cache policy decides only whether and when the fetch starts; every value says where it
/// came from and how old it is.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct KeyedRepositoryPolicyTests {
    let remote = KeyedRemote()
    let clock = TestWallClock()

    func repository() -> KeyedRepository<String, String> {
        KeyedRepository(
            ages: CacheAges(staleAfter: .seconds(60), expireAfter: .seconds(600)), now: { [clock] in clock.now },
            fetch: remote.fetch)
    }

    @Test func preferCacheFetchesOnAMissThenServesMemory() async throws {
        let repository = repository()
        #expect(try await summaries(record(repository.events(for: "a")), count: 1) == ["remote:a v1"])
        clock.advance(by: 10)
        let second = try #require(try await repository.value(for: "a"))
        #expect(second.origin == .memory)
        #expect(second.age == .seconds(10))
        #expect(!second.isStale)
        #expect(remote.fetchCount == 1)
    }

    @Test func aOneShotReadOfAStaleValueServesItAndRevalidatesOnce() async throws {
        let repository = repository()
        try await repository.save("saved", for: "a")
        clock.advance(by: 61)
        let reader = record(repository.events(for: "a", policy: .returnCacheDontLoad))
        #expect(try await summaries(reader, count: 1) == ["memory:saved"], "the reader has read the tiers")
        let stale = try #require(try await repository.value(for: "a"))
        #expect(stale.value == "saved" && stale.isStale && stale.isRefreshing)
        #expect(try await summaries(reader, count: 2).last == "remote:a v1", "the revalidation reaches readers")
        #expect(remote.fetchCount == 1)
        let fresh = try #require(try await repository.value(for: "a", policy: .returnCacheDontLoad))
        #expect(fresh.value == "a v1" && !fresh.isStale && !fresh.isRefreshing)
        #expect(remote.fetchCount == 1)
    }

    @Test func cachedValueReadsMemoryAtOnceAndNeverAnExpiredValue() async throws {
        let repository = repository()
        #expect(repository.cachedValue(for: "a") == nil)
        try await repository.save("saved", for: "a")
        clock.advance(by: 61)
        let cached = try #require(repository.cachedValue(for: "a"))
        #expect(cached.value == "saved" && cached.origin == .memory && cached.isStale)
        clock.advance(by: 600)
        #expect(repository.cachedValue(for: "a") == nil)
        #expect(remote.fetchCount == 0)
    }

    @Test func requireCacheIsNoValueOnAMissAndNeverFetches() async throws {
        let repository = repository()
        let events = record(repository.events(for: "a", policy: .returnCacheDontLoad))
        #expect(try await summaries(events, count: 1) == ["noValue"])
        #expect(remote.fetchCount == 0)
        try await repository.save("saved", for: "a")
        #expect(
            try await summaries(events, count: 2) == ["noValue", "local:saved"], "a reader that subscribed on a miss")
        #expect(remote.fetchCount == 0)
    }

    @Test func reloadIgnoringCacheAlwaysFetchesAndCachesTheResult() async throws {
        let repository = repository()
        try await repository.save("old", for: "a")
        #expect(
            try await summaries(record(repository.events(for: "a", policy: .reloadIgnoringCache)), count: 1) == [
                "remote:a v1"
            ])
        #expect(try await repository.value(for: "a", policy: .returnCacheDontLoad)?.value == "a v1")
    }

    @Test func returnCacheThenLoadServesTheCachedValueThenTheFetchedOne() async throws {
        let repository = repository()
        try await repository.save("cached", for: "a")
        let events = record(repository.events(for: "a", policy: .returnCacheThenLoad))
        #expect(try await summaries(events, count: 2) == ["memory:cached", "remote:a v1"])
    }

    @Test func networkFirstFallsBackToTheCacheAndReportsTheError() async throws {
        let repository = repository()
        try await repository.save("cached", for: "a")
        remote.fail(with: URLError(.notConnectedToInternet))
        let events = record(repository.events(for: "a", policy: .loadElseReturnCache))
        #expect(
            try await summaries(events, count: 2) == ["error", "memory:cached"], "the error, then the cached value")
        #expect(try await repository.value(for: "a", policy: .loadElseReturnCache)?.value == "cached")
        remote.fail(with: nil)
        let fresh = record(repository.events(for: "a", policy: .loadElseReturnCache))
        #expect(try await summaries(fresh, count: 1) == ["remote:a v3"])
    }

    @Test func networkFirstWithNothingCachedReportsTheErrorThenNoValue() async throws {
        let repository = repository()
        remote.fail(with: URLError(.notConnectedToInternet))
        #expect(
            try await summaries(record(repository.events(for: "a", policy: .loadElseReturnCache)), count: 2) == [
                "error", "noValue",
            ])
        await #expect(throws: URLError.self) { try await repository.value(for: "a", policy: .loadElseReturnCache) }
    }

    @Test func aStaleValueIsServedAndRevalidatedInTheBackground() async throws {
        let repository = repository()
        try await repository.save("cached", for: "a")
        clock.advance(by: 61)
        let events = record(repository.events(for: "a"))
        let first = try await events.values(count: 2)
        #expect(first.map(\.summary) == ["memory:cached", "remote:a v1"])
        #expect(first[0].cachedValue?.isStale == true)
        #expect(first[1].cachedValue?.isStale == false)
    }

    @Test func anExpiredValueIsNeverServedAndIsRemoved() async throws {
        let repository = repository()
        try await repository.save("cached", for: "a")
        clock.advance(by: 600)
        #expect(try await repository.value(for: "a", policy: .returnCacheDontLoad) == nil)
        #expect(repository.memory.count == 0)
        #expect(try await repository.value(for: "a")?.origin == .remote)
    }

    @Test func aFailedFetchOnAMissIsAnErrorEventAndTheStreamGoesOn() async throws {
        let repository = repository()
        remote.fail(with: URLError(.timedOut))
        let events = record(repository.events(for: "a"))
        #expect(try await summaries(events, count: 1) == ["error"])
        // NB: the error reaches the readers once its fetch has ended (the order itself is
        // tested in SingleFlightTests), so a refresh made at once starts a new fetch.
        #expect(!repository.isFetching("a"))
        remote.fail(with: nil)
        #expect(try await repository.refresh("a") == .updated)
        #expect(try await summaries(events, count: 2) == ["error", "remote:a v2"])
    }
}
