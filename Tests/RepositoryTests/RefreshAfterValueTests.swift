import ContentLoading
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

@testable import ContentLoadingRepository

/// A refresh made on seeing a fetched value fetches again: it does not join the fetch that
/// delivered the value, which is still ending (Store5's `get` then `fresh`, TanStack Query's
/// refetch after a fetch).
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct RefreshAfterValueTests {
    /// A memory-only repository of `loader` whose fetches, once they have stored their value
    /// (every reader has it) and before they end, run `stored` with the repository.
    private static func repository(
        _ loader: ControlledLoader<String, String>,
        stored: @escaping @Sendable (KeyedRepository<String, String>) async -> Void
    ) -> KeyedRepository<String, String> {
        // NB: weak, or the repository and its hook would hold each other.
        let held = Locked<WeakReference<KeyedRepository<String, String>>?>(nil)
        let repository = KeyedRepository<String, String>(
            memory: MemoryCache(countLimit: 10), tier: nil, ages: .default, now: { Date() },
            fetchStored: {
                guard let repository = held.withLock({ $0?.object }) else { return }
                await stored(repository)
            }
        ) { key, _ in .modified(try await loader.load(key), .none) }
        held.withLock { $0 = WeakReference(repository) }
        return repository
    }

    @Test func aRefreshMadeOnceTheFetchedValueIsStoredFetchesAgain() async throws {
        let loader = ControlledLoader<String, String>()
        let refresh = Locked<Task<SyncOutcome, any Error>?>(nil)
        let repository = Self.repository(loader) { repository in
            guard refresh.withLock({ $0 }) == nil else { return }
            // The reader has the value; its fetch has not ended yet.
            refresh.withLock { $0 = Task { try await repository.refresh("k") } }
            while repository.waitingCallers(for: "k") < 2 { await Task.yield() }
        }
        // NB: the first fetch is a refresh's, which waits for it to end: a read returns once it
        // has the value, before the hook runs (the test then found no second refresh), and it
        // leaves the fetch while the hook waits, which then waited for ever for two callers
        // (under ThreadSanitizer, one run in five and one in a hundred).
        let first = Task { try await repository.refresh("k") }
        #expect(loader.complete(try await loader.call(0), returning: "first"))
        #expect(loader.complete(try await loader.call(1), returning: "second"), "the refresh asked again")
        #expect(try await first.value == .updated)
        let refreshed = try #require(refresh.withLock { $0 })
        #expect(try await refreshed.value == .updated)
        #expect(repository.cachedValue(for: "k")?.value == "second")
    }
}
