import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// `freshValue(for:maxAge:)`: the cached value when it is fresh, else the fetched one, waited
/// for; a stale value is never returned.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct KeyedRepositoryFreshValueTests {
    struct Outage: Error {}

    /// A repository of `remote` whose values go stale after 60 seconds of `clock`.
    func repository(_ remote: KeyedRemote, _ clock: TestWallClock) -> KeyedRepository<String, String> {
        KeyedRepository(
            ages: CacheAges(staleAfter: .seconds(60), expireAfter: .seconds(3_600)), now: { [clock] in clock.now },
            fetch: remote.fetch)
    }

    /// TanStack Query's "fetchQuery should only fetch if the data is older then the given stale
    /// time", with seconds for its milliseconds.
    @Test func aValueOlderThanTheMaxAgeGivenIsFetchedAgainAndAYoungerOneIsServed() async throws {
        let (remote, clock) = (KeyedRemote(), TestWallClock())
        let repository = repository(remote, clock)
        try await repository.save("saved", for: "k")
        let first = try await repository.freshValue(for: "k", maxAge: .seconds(100))
        clock.advance(by: 11)
        let second = try await repository.freshValue(for: "k", maxAge: .seconds(10))
        let third = try await repository.freshValue(for: "k", maxAge: .seconds(10))
        clock.advance(by: 11)
        let fourth = try await repository.freshValue(for: "k", maxAge: .seconds(10))
        #expect([first, second, third, fourth].map { $0?.value } == ["saved", "k v1", "k v1", "k v2"])
        #expect([first, second, third, fourth].map { $0?.origin } == [.memory, .remote, .memory, .remote])
        #expect(remote.fetchCount == 2)
    }

    /// With no maximum age, a value is fresh until the repository's `staleAfter`; a stale one is
    /// not served while its fetch runs (as `value(for:)` does), it waits for the fetch.
    @Test func withoutAMaxAgeAStaleValueWaitsForTheFetch() async throws {
        let (remote, clock) = (KeyedRemote(), TestWallClock())
        let repository = repository(remote, clock)
        #expect(try await repository.freshValue(for: "k")?.value == "k v1", "a miss is fetched")
        clock.advance(by: 59)
        #expect(try await repository.freshValue(for: "k")?.value == "k v1")
        #expect(remote.fetchCount == 1)
        clock.advance(by: 1)
        let fetched = try #require(try await repository.freshValue(for: "k"))
        #expect(fetched.value == "k v2")
        #expect(fetched.origin == .remote)
        #expect(!fetched.isStale)
        #expect(remote.fetchCount == 2)
    }

    /// A value younger than the maximum age but invalidated since it was written is fetched
    /// again; so is one that a matching invalidation marks stale.
    @Test func anInvalidatedValueIsFetchedAgainWhateverItsAge() async throws {
        let (remote, clock) = (KeyedRemote(), TestWallClock())
        let repository = repository(remote, clock)
        _ = try await repository.freshValue(for: "todos/1")
        repository.invalidate("todos/1")
        #expect(try await repository.freshValue(for: "todos/1", maxAge: .seconds(3_000))?.value == "todos/1 v2")
        repository.invalidate(keysWithPrefix: "todos/")
        #expect(try await repository.freshValue(for: "todos/1")?.value == "todos/1 v3")
        #expect(try await repository.freshValue(for: "todos/1")?.value == "todos/1 v3", "fresh again")
        #expect(remote.fetchCount == 3)
    }

    /// A failed fetch is thrown: the stale value is not returned in its place, and stays cached.
    @Test func aFailedFetchIsThrownAndTheStaleValueStays() async throws {
        let (remote, clock) = (KeyedRemote(), TestWallClock())
        let repository = repository(remote, clock)
        try await repository.save("saved", for: "k")
        clock.advance(by: 61)
        remote.fail(with: Outage())
        await #expect(throws: Outage.self) { try await repository.freshValue(for: "k") }
        let held = try await repository.value(for: "k", policy: .returnCacheDontLoad)
        #expect(held?.value == "saved")
        #expect(held?.isStale == true)
    }

    /// Callers that find the value stale at once share one fetch, as reads do.
    @Test func callersThatFindTheValueStaleShareOneFetch() async throws {
        let loader = ControlledLoader<String, String>()
        let clock = TestWallClock()
        let repository = KeyedRepository<String, String>(
            ages: CacheAges(staleAfter: .seconds(60), expireAfter: .seconds(3_600)), now: { [clock] in clock.now },
            fetch: loader.load)
        try await repository.save("saved", for: "k")
        clock.advance(by: 61)
        let callers = (0..<3).map { _ in Task { try await repository.freshValue(for: "k")?.value } }
        let call = try await loader.call(0)
        while repository.waitingCallers(for: "k") < 3 { await Task.yield() }
        #expect(loader.complete(call, returning: "fetched"))
        for caller in callers { #expect(try await caller.value == "fetched") }
        #expect(loader.calls.count == 1)
    }

    /// A fresh value on disk (memory was emptied by a relaunch) is served from there, and a
    /// maximum age past `expireAfter` serves no expired value.
    @Test func aFreshValueOnDiskIsServedAndNoExpiredOneIs() async throws {
        let (remote, clock, path) = (KeyedRemote(), TestWallClock(), try temporaryCachePath())
        func launch() throws -> KeyedRepository<String, String> {
            KeyedRepository(
                disk: try DiskCache(.file(path: path)),
                ages: CacheAges(staleAfter: .seconds(60), expireAfter: .seconds(600)), now: { [clock] in clock.now },
                fetch: remote.fetch)
        }
        try await launch().save("saved", for: "k")
        let stored = try await launch().freshValue(for: "k")
        #expect(stored?.value == "saved")
        #expect(stored?.origin == .disk)
        clock.advance(by: 700)
        #expect(try await launch().freshValue(for: "k", maxAge: .seconds(10_000))?.value == "k v1")
        #expect(remote.fetchCount == 1)
    }
}
