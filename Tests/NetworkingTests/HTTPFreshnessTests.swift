import ContentLoading
import ContentLoadingNetworking
import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// `Cache-Control` and `Expires` on a response set that entry's ages in a keyed repository,
/// within the repository's own limits; `no-store` is never written to disk. Against the
/// fixture server's `/fresh/` route (a real process on 127.0.0.1).
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct HTTPFreshnessTests {
    let fixture: ItemsFixture
    let clock = Locked(Date(timeIntervalSince1970: 1_000_000))
    let client = APIClient(transport: .urlSession())
    let path: String

    struct Item: Codable, Equatable, Sendable { let order: Int }

    init() throws {
        fixture = try ItemsFixture("freshness")
        path = fixture.root.appendingPathComponent("cache.sqlite").path
    }

    /// A repository whose key is the path of the URL to fetch, over the cache file, with
    /// stale-after 300 s and expire-after an hour.
    func repository() throws -> KeyedRepository<String, [Item]> {
        let (client, server, clock) = (client, fixture.server, clock)
        return KeyedRepository(
            disk: try DiskCache(.file(path: path)),
            ages: CacheAges(staleAfter: .seconds(300), expireAfter: .seconds(3_600)),
            now: { clock.withLock { $0 } }
        ) { key, validators in
            try await client.fetch([Item].self, from: server.url(key), ifChangedSince: validators)
        }
    }

    func advance(_ seconds: TimeInterval) { clock.withLock { $0 += seconds } }

    func isStale(_ key: String, in repository: KeyedRepository<String, [Item]>) async throws -> Bool {
        try #require(try await repository.value(for: key, policy: .returnCacheDontLoad)).isStale
    }

    @Test func maxAgeSetsWhenTheEntryIsStaleSoonerOrLaterThanTheRepositorysOwnAge() async throws {
        let repository = try repository()
        let short = "fresh/items.json?cc=max-age%3D60", long = "fresh/items.json?cc=public,%20max-age=1200"
        #expect(try await repository.refresh(short) == .updated)
        #expect(try await repository.refresh(long) == .updated)
        advance(59)
        #expect(try await !isStale(short, in: repository))
        advance(2)
        #expect(try await isStale(short, in: repository), "max-age=60, not the repository's 300 s")
        advance(600)
        #expect(try await !isStale(long, in: repository), "max-age=1200, beyond the repository's 300 s")

        let restarted = try self.repository()
        #expect(try await !isStale(long, in: restarted), "the max-age is stored with the value on disk")
        advance(600)
        #expect(try await isStale(long, in: restarted))
    }

    @Test func aMaxAgeBeyondTheRepositorysExpiryEndsAtItsExpiry() async throws {
        let repository = try repository()
        let key = "fresh/items.json?cc=max-age%3D86400"
        #expect(try await repository.refresh(key) == .updated)
        advance(3_599)
        #expect(try await !isStale(key, in: repository))
        advance(1)
        #expect(try await repository.value(for: key, policy: .returnCacheDontLoad) == nil, "expired after an hour")
    }

    @MainActor @Test func noCacheIsStaleAtOnceSoEveryReadRevalidates() async throws {
        let repository = try repository()
        let key = "fresh/items.json?cc=no-cache"
        #expect(try await repository.refresh(key) == .updated)
        #expect(try await isStale(key, in: repository))
        let before = try await fixture.server.requestCount()
        // NB: the read's second event is the revalidation's answer (a 304), after its request.
        let reader = StreamRecorder(repository.events(for: key))
        let events = try await reader.values(count: 2).compactMap(\.cachedValue)
        try #require(events.count == 2)
        #expect(events[0].isStale && events[0].isRefreshing)
        #expect(events[1].isUnchanged && !events[1].isRefreshing)
        // NB: the server counts the question that read `before` too.
        #expect(try await fixture.server.requestCount() == before + 2, "one request: the revalidation")
    }

    @Test func expiresCountsFromTheResponsesDate() async throws {
        let repository = try repository()
        let key = "fresh/items.json?expires_in=120"
        #expect(try await repository.refresh(key) == .updated)
        advance(110)
        #expect(try await !isStale(key, in: repository))
        advance(20)
        #expect(try await isStale(key, in: repository))

        let past = "fresh/items.json?expires=0"
        #expect(try await repository.refresh(past) == .updated)
        #expect(try await isStale(past, in: repository), "an Expires that is not a date is already stale")
    }

    /// Behind a CDN: a response a shared cache had held for 590 s of its 600 is fresh for 10 s.
    @Test func theTimeASharedCacheHeldItCountsAgainstItsMaxAge() async throws {
        let repository = try repository()
        let key = "fresh/items.json?cc=max-age%3D600&age=590"
        #expect(try await repository.refresh(key) == .updated)
        advance(9)
        #expect(try await !isStale(key, in: repository))
        advance(2)
        #expect(try await isStale(key, in: repository), "10 s left of its max-age, not 600")
    }

    @Test func aNotModifiedAnswerBringsItsOwnFreshness() async throws {
        let repository = try repository()
        #expect(try await repository.refresh("fresh/items.json") == .updated)
        let key = "fresh/items.json?cc=max-age%3D30"
        #expect(try await repository.refresh(key) == .updated)
        advance(31)
        #expect(try await isStale(key, in: repository))
        #expect(try await repository.refresh(key) == .notModified)
        #expect(try await !isStale(key, in: repository), "fresh again for 30 s")
    }

    @Test func noStoreIsNeverWrittenToDiskNotEvenAsAnOlderCopy() async throws {
        let repository = try repository()
        let key = "fresh/items.json?cc=no-store"
        let disk = try #require(repository.disk)
        #expect(try await repository.refresh(key) == .updated)
        #expect(try await repository.value(for: key, policy: .returnCacheDontLoad)?.value == [Item(order: 3)])
        #expect(try await disk.keysByAccess().isEmpty, "kept in memory only")

        // A copy stored before the server said no-store goes from disk when it does.
        let stored = KeyedRepository<String, [Item]>(disk: disk) { _ in [Item(order: 1)] }
        #expect(try await stored.refresh(key) == .updated)
        #expect(try await disk.keysByAccess().count == 1)
        #expect(try await repository.refresh(key) == .notModified, "a 304 to the ETag held in memory")
        #expect(try await disk.keysByAccess().isEmpty)

        let restarted = try self.repository()
        #expect(try await restarted.value(for: key, policy: .returnCacheDontLoad) == nil, "nothing survives a restart")
    }
}
