import ContentLoadingRepository
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// A fetch whose request started before an invalidation of its key brings what the server held
/// before it (the change an app made there, then invalidated the key for, is not in it): it does
/// not make the key fresh, and it does not answer a caller that asked for a fresh value after
/// the invalidation. (A live reader already fetched once more after it.)
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct InvalidationDuringFetchTests {
    /// A repository whose values stay fresh for an hour, fetched by `loader`.
    func repository(_ loader: ControlledLoader<String, String>) -> KeyedRepository<String, String> {
        KeyedRepository(ages: CacheAges(staleAfter: .seconds(3_600), expireAfter: .seconds(86_400)), fetch: loader.load)
    }

    /// Starts a fetch of "todos" that nobody reads live (a prefetch), and returns it once its
    /// request is on its way.
    func prefetch(
        _ repository: KeyedRepository<String, String>, _ loader: ControlledLoader<String, String>
    ) async throws -> (Task<CachedValue<String>?, any Error>, ControlledLoader<String, String>.Call) {
        let prefetch = Task { try await repository.value(for: "todos", policy: .reloadIgnoringCache) }
        return (prefetch, try await loader.call(0))
    }

    @Test func theValueOfAFetchThatStartedBeforeAnInvalidationStaysStale() async throws {
        let loader = ControlledLoader<String, String>()
        let repository = repository(loader)
        let (prefetch, request) = try await prefetch(repository, loader)
        repository.invalidate("todos")  // the app changed the todos on the server
        #expect(loader.complete(request, returning: "before the change"))
        #expect(try await prefetch.value?.value == "before the change")
        let held = try #require(try await repository.value(for: "todos", policy: .returnCacheDontLoad))
        #expect(held.value == "before the change")
        #expect(held.isStale, "the invalidation still holds: the next read fetches again")
        // NB: a read that serves the cache revalidates the stale value.
        let served = try await repository.value(for: "todos")
        #expect(served?.isRefreshing == true)
        #expect(loader.complete(try await loader.call(1), returning: "after the change"))
        await repository.fetchSettled("todos")
        let fetched = try #require(try await repository.value(for: "todos", policy: .returnCacheDontLoad))
        #expect(fetched.value == "after the change")
        #expect(!fetched.isStale)
    }

    @Test func aFetchThatStartedAfterTheInvalidationMakesTheKeyFresh() async throws {
        let loader = ControlledLoader<String, String>()
        let repository = repository(loader)
        try await repository.save("saved", for: "todos")
        repository.invalidate("todos")
        let (prefetch, request) = try await prefetch(repository, loader)
        #expect(loader.complete(request, returning: "after the change"))
        #expect(try await prefetch.value?.value == "after the change")
        #expect(try await repository.value(for: "todos", policy: .returnCacheDontLoad)?.isStale == false)
        #expect(try await repository.freshValue(for: "todos")?.value == "after the change")
        #expect(loader.calls.count == 1)
    }

    @Test func aFreshValueAskedForAfterAnInvalidationWaitsForTheFetchThatStartedBeforeAndFetchesAgain()
        async throws
    {
        let loader = ControlledLoader<String, String>()
        let repository = repository(loader)
        let (prefetch, request) = try await prefetch(repository, loader)
        repository.invalidate("todos")
        let fresh = Task { try await repository.freshValue(for: "todos") }
        while repository.waitingCallers(for: "todos") < 2 { await Task.yield() }
        #expect(loader.complete(request, returning: "before the change"))
        #expect(loader.complete(try await loader.call(1), returning: "after the change"))
        let value = try #require(try await fresh.value)
        #expect(value.value == "after the change")
        #expect(value.origin == .remote)
        #expect(!value.isStale)
        #expect(try await prefetch.value?.value == "before the change", "the prefetch gets its own fetch's value")
        #expect(loader.calls.count == 2)
    }

    @Test func aRefreshAfterAnInvalidationWaitsForTheFetchThatStartedBeforeAndFetchesAgain() async throws {
        let loader = ControlledLoader<String, String>()
        let repository = repository(loader)
        let (prefetch, request) = try await prefetch(repository, loader)
        repository.invalidate("todos")
        let refresh = Task { try await repository.refresh("todos") }
        while repository.waitingCallers(for: "todos") < 2 { await Task.yield() }
        #expect(loader.complete(request, returning: "before the change"))
        #expect(loader.complete(try await loader.call(1), returning: "after the change"))
        #expect(try await refresh.value == .updated)
        let held = try #require(try await repository.value(for: "todos", policy: .returnCacheDontLoad))
        #expect(held.value == "after the change")
        #expect(!held.isStale)
        _ = try await prefetch.value
    }

    /// Without an invalidation, a refresh joins the fetch in flight, as documented: one request.
    @Test func aRefreshWithoutAnInvalidationJoinsTheFetchInFlight() async throws {
        let loader = ControlledLoader<String, String>()
        let repository = repository(loader)
        let (prefetch, request) = try await prefetch(repository, loader)
        let refresh = Task { try await repository.refresh("todos") }
        while repository.waitingCallers(for: "todos") < 2 { await Task.yield() }
        #expect(loader.complete(request, returning: "fetched"))
        #expect(try await refresh.value == .updated)
        #expect(try await prefetch.value?.value == "fetched")
        #expect(try await repository.value(for: "todos", policy: .returnCacheDontLoad)?.isStale == false)
        #expect(loader.calls.count == 1)
    }
}
