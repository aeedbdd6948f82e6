import ContentLoadingRepository
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// Invalidation by predicate, by key prefix and by element: one call marks every matching
/// value stale (in memory and on disk) and gets the live readers' keys fetched again.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct MatchingInvalidationTests {
    struct Item: Identifiable, Codable, Sendable, Equatable {
        let id: Int
        var name: String
    }

    func isStale<Value>(_ repository: KeyedRepository<String, Value>, _ key: String) async throws -> Bool {
        try #require(try await repository.value(for: key, policy: .returnCacheDontLoad)).isStale
    }

    @Test func aPredicateOrAPrefixMarksTheMatchingKeysStaleAndRefetchesTheirLiveReaders() async throws {
        let remote = KeyedRemote()
        let repository = KeyedRepository<String, String>(fetch: remote.fetch)
        for key in ["feed/home", "feed/saved", "profile"] { try await repository.refresh(key) }
        let home = record(repository.events(for: "feed/home"))
        #expect(try await summaries(home, count: 1) == ["memory:feed/home v1"])

        repository.invalidate(keysWithPrefix: "feed/")
        #expect(try await summaries(home, count: 2).last == "remote:feed/home v2", "a live reader: fetched again")
        #expect(try await isStale(repository, "feed/saved"), "no reader: marked stale, not fetched")
        #expect(remote.fetchCount(of: "feed/saved") == 1)
        #expect(try await !isStale(repository, "profile"))
        #expect(try await !isStale(repository, "feed/home"), "written after the invalidation")

        repository.invalidate { $0 == "profile" }
        #expect(try await isStale(repository, "profile"))
        try await repository.refresh("profile")
        #expect(try await !isStale(repository, "profile"), "a value fetched since is fresh")
    }

    @Test func everyListHoldingAnElementIsStaleOnDiskToo() async throws {
        let path = try temporaryCachePath()
        let lists: [String: [Item]] = [
            "all": [Item(id: 1, name: "one"), Item(id: 42, name: "answer")],
            "favourites": [Item(id: 42, name: "answer")],
            "other": [Item(id: 4, name: "four")],
        ]
        let loader = ControlledLoader<String, [Item]>()
        let repository = KeyedRepository<String, [Item]>(disk: try DiskCache(.file(path: path)), fetch: loader.load)
        for (key, list) in lists { try await repository.save(list, for: key) }
        let favourites = record(repository.events(for: "favourites"))
        _ = try await favourites.values(count: 1)

        let held = await repository.invalidate(holding: 42)
        #expect(Set(held) == ["all", "favourites"])
        let refetch = try await loader.call(0)
        #expect(refetch.input == "favourites", "its live reader fetches it again")
        #expect(loader.complete(refetch, returning: [Item(id: 42, name: "ANSWER")]))
        #expect(try await favourites.values(count: 2).last?.cachedValue?.value == [Item(id: 42, name: "ANSWER")])

        #expect(try await isStale(repository, "all"))
        #expect(try await !isStale(repository, "other"))
        #expect(try await !isStale(repository, "favourites"), "fetched since")

        // After a relaunch the lists are on disk only: none is decoded now, each is checked when read.
        let relaunched = KeyedRepository<String, [Item]>(disk: try DiskCache(.file(path: path)), fetch: loader.load)
        #expect(await relaunched.invalidate(holding: 1) == [])
        #expect(try await isStale(relaunched, "all"))
        #expect(try await !isStale(relaunched, "other"))
    }

    @Test func manyInvalidationsStayBoundedAndStillMarkWhatTheyMatch() async throws {
        let remote = KeyedRemote()
        let repository = KeyedRepository<String, String>(fetch: remote.fetch)
        try await repository.refresh("kept")
        for round in 0..<300 { repository.invalidate { $0 == "never-\(round)" } }
        try await repository.refresh("a")
        repository.invalidate { $0 == "a" }
        #expect(try await isStale(repository, "a"))
        #expect(try await isStale(repository, "kept"), "the oldest predicates widened to every key written then")
    }
}
