import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// A fetch whose request started before an invalidation of its key brings what the server held
/// before it (the change an app made there, then invalidated the key for, is not in it): it does
/// not make the key fresh, and it does not answer a caller that asked for a fresh value after
/// the invalidation (a live reader already fetched once more after it). Nor does one whose
/// request started before a save or removal of the key, which wins over it.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct FetchStartedBeforeTests {
    /// A repository whose values stay fresh for an hour, fetched by `loader`.
    func repository(_ loader: ControlledLoader<String, String>) -> KeyedRepository<String, String> {
        KeyedRepository(ages: CacheAges(staleAfter: .seconds(3_600), expireAfter: .seconds(86_400)), fetch: loader.load)
    }

    /// Starts a refresh of "todos" with no live reader (it waits for its fetch whatever is
    /// saved, removed or invalidated meanwhile), and returns it once its request is on its way.
    func olderRefresh(
        _ repository: KeyedRepository<String, String>, _ loader: ControlledLoader<String, String>
    ) async throws -> (Task<SyncOutcome, any Error>, ControlledLoader<String, String>.Call) {
        let refresh = Task { try await repository.refresh("todos") }
        return (refresh, try await loader.call(0))
    }

    /// Waits until `count` callers wait for the fetch of "todos".
    func waitForCallers(_ count: Int, of repository: KeyedRepository<String, String>) async {
        while repository.waitingCallers(for: "todos") < count { await Task.yield() }
    }

    @Test func theValueOfAFetchThatStartedBeforeAnInvalidationStaysStale() async throws {
        let loader = ControlledLoader<String, String>()
        let repository = repository(loader)
        let (older, request) = try await olderRefresh(repository, loader)
        repository.invalidate("todos")  // the app changed the todos on the server
        #expect(loader.complete(request, returning: "before the change"))
        #expect(try await older.value == .updated, "a refresh asked for before the invalidation gets it")
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
        let (older, request) = try await olderRefresh(repository, loader)
        #expect(loader.complete(request, returning: "after the change"))
        #expect(try await older.value == .updated)
        #expect(try await repository.value(for: "todos", policy: .returnCacheDontLoad)?.isStale == false)
        #expect(try await repository.freshValue(for: "todos")?.value == "after the change")
        #expect(loader.calls.count == 1)
    }

    @Test func aFreshValueAskedForAfterAnInvalidationWaitsForTheFetchThatStartedBeforeAndFetchesAgain()
        async throws
    {
        let loader = ControlledLoader<String, String>()
        let repository = repository(loader)
        let (older, request) = try await olderRefresh(repository, loader)
        repository.invalidate("todos")
        let fresh = Task { try await repository.freshValue(for: "todos") }
        await waitForCallers(2, of: repository)
        #expect(loader.complete(request, returning: "before the change"))
        #expect(loader.complete(try await loader.call(1), returning: "after the change"))
        let value = try #require(try await fresh.value)
        #expect(value.value == "after the change")
        #expect(value.origin == .remote)
        #expect(!value.isStale)
        #expect(try await older.value == .updated)
        #expect(loader.calls.count == 2)
    }

    @Test func aRefreshAfterAnInvalidationWaitsForTheFetchThatStartedBeforeAndFetchesAgain() async throws {
        let loader = ControlledLoader<String, String>()
        let repository = repository(loader)
        let (older, request) = try await olderRefresh(repository, loader)
        repository.invalidate("todos")
        let refresh = Task { try await repository.refresh("todos") }
        await waitForCallers(2, of: repository)
        #expect(loader.complete(request, returning: "before the change"))
        #expect(loader.complete(try await loader.call(1), returning: "after the change"))
        #expect(try await refresh.value == .updated)
        let held = try #require(try await repository.value(for: "todos", policy: .returnCacheDontLoad))
        #expect(held.value == "after the change")
        #expect(!held.isStale)
        #expect(try await older.value == .updated)
    }

    /// A removal since the fetch's request started wins over it (nothing is stored): a fresh
    /// value asked for after the removal was `nil`, though the server had one.
    @Test func aFreshValueAskedForAfterARemovalIsFetchedByARequestThatStartedAfterIt() async throws {
        let loader = ControlledLoader<String, String>()
        let repository = repository(loader)
        let (older, request) = try await olderRefresh(repository, loader)
        try await repository.remove("todos")  // a sign-out, say
        let fresh = Task { try await repository.freshValue(for: "todos") }
        await waitForCallers(2, of: repository)
        #expect(loader.complete(request, returning: "the first account's"))
        #expect(loader.complete(try await loader.call(1), returning: "the second account's"))
        #expect(try await fresh.value?.value == "the second account's")
        #expect(try await older.value == .notModified, "the removal wins over the fetch that started before it")
    }

    /// A save or removal since the fetch's request started wins over it: a refresh asked for
    /// after it fetched nothing (after a save, the save stayed as the server's value).
    @Test(arguments: [false, true])
    func aRefreshAfterASaveOrARemovalIsMadeByARequestThatStartedAfterIt(removes: Bool) async throws {
        let loader = ControlledLoader<String, String>()
        let repository = repository(loader)
        let (older, request) = try await olderRefresh(repository, loader)
        if removes { try await repository.remove("todos") } else { try await repository.save("local", for: "todos") }
        let refresh = Task { try await repository.refresh("todos") }
        await waitForCallers(2, of: repository)
        #expect(loader.complete(request, returning: "before"))
        #expect(loader.complete(try await loader.call(1), returning: "after"))
        #expect(try await refresh.value == .updated)
        #expect(try await repository.value(for: "todos", policy: .returnCacheDontLoad)?.value == "after")
        #expect(try await older.value == .notModified, "the save or removal won over it")
    }

    /// A one-shot read that always fetches (`reloadIgnoringCache`, network-first), made after an
    /// invalidation: it returned the value of the fetch that started before (its stream's first
    /// value), what the server held before the change the app invalidated the key for.
    @Test(arguments: [CachePolicy.reloadIgnoringCache, .loadElseReturnCache])
    func aReadThatAlwaysFetchesAfterAnInvalidationGetsAFetchThatStartedAfterIt(policy: CachePolicy) async throws {
        let loader = ControlledLoader<String, String>()
        let repository = repository(loader)
        let (older, request) = try await olderRefresh(repository, loader)
        repository.invalidate("todos")
        let read = Task { try await repository.value(for: "todos", policy: policy) }
        await waitForCallers(2, of: repository)
        #expect(loader.complete(request, returning: "before the change"))
        #expect(loader.complete(try await loader.call(1), returning: "after the change"))
        let value = try #require(try await read.value)
        #expect(value.value == "after the change")
        #expect(value.origin == .remote)
        #expect(!value.isStale)
        #expect(try await older.value == .updated)
    }

    /// A live read that fetches first, started after an invalidation while an older fetch runs:
    /// every reader is given every write, and it showed that fetch's value first (what the
    /// server held before the change), then its own fetch's.
    @Test(arguments: [CachePolicy.reloadIgnoringCache, .loadElseReturnCache])
    func aLiveReadThatFetchesFirstShowsItsOwnFetchsValueFirst(policy: CachePolicy) async throws {
        let loader = ControlledLoader<String, String>()
        let repository = repository(loader)
        let (older, request) = try await olderRefresh(repository, loader)
        repository.invalidate("todos")
        let shown = Locked<[String]>([])
        let reader = Task {
            for await event in repository.events(for: "todos", policy: policy) {
                if case .value(let cached) = event { shown.withLock { $0.append(cached.value) } }
            }
        }
        await waitForCallers(2, of: repository)
        #expect(loader.complete(request, returning: "before the change"))
        #expect(loader.complete(try await loader.call(1), returning: "after the change"))
        while !shown.withLock({ $0.contains("after the change") }) { await Task.yield() }
        #expect(shown.withLock { $0 } == ["after the change"])
        reader.cancel()
        #expect(try await older.value == .updated)
    }

    struct Item: Identifiable, Sendable, Codable, Equatable { let id: Int }

    /// A repository of lists of items whose values stay fresh for an hour, with a refresh of
    /// "list" (no live reader) whose request is on its way.
    func olderListRefresh() async throws -> (
        KeyedRepository<String, [Item]>, ControlledLoader<String, [Item]>, Task<SyncOutcome, any Error>,
        ControlledLoader<String, [Item]>.Call
    ) {
        let loader = ControlledLoader<String, [Item]>()
        let repository = KeyedRepository<String, [Item]>(
            ages: CacheAges(staleAfter: .seconds(3_600), expireAfter: .seconds(86_400)), fetch: loader.load)
        let older = Task { try await repository.refresh("list") }
        return (repository, loader, older, try await loader.call(0))
    }

    /// An element the server changed, invalidated by id while a list nobody reads is being
    /// fetched (a prefetch): nothing held said whether the list holds it, and the list the
    /// fetch brings, from a request that started before, was held as fresh.
    @Test(arguments: [true, false])
    func aListFetchedByARequestThatStartedBeforeAnInvalidationOfAnElementItHoldsStaysStale(holdsIt: Bool)
        async throws
    {
        let (repository, loader, older, request) = try await olderListRefresh()
        #expect(await repository.invalidate(holding: 42) == [], "no list held holds it yet")
        #expect(loader.complete(request, returning: [Item(id: 7), Item(id: holdsIt ? 42 : 8)]))
        #expect(try await older.value == .updated)
        let held = try #require(try await repository.value(for: "list", policy: .returnCacheDontLoad))
        #expect(held.isStale == holdsIt, holdsIt ? "the next read fetches again" : "a list without it stays fresh")
    }

    /// A refresh asked for after such an invalidation waits for that fetch, then fetches again.
    @Test func aRefreshAfterAnInvalidationOfAnElementWaitsForTheFetchThatStartedBeforeAndFetchesAgain()
        async throws
    {
        let (repository, loader, older, request) = try await olderListRefresh()
        await repository.invalidate(holding: 42)
        let refresh = Task { try await repository.freshValue(for: "list") }
        while repository.waitingCallers(for: "list") < 2 { await Task.yield() }
        #expect(loader.complete(request, returning: [Item(id: 42)]))
        #expect(loader.complete(try await loader.call(1), returning: [Item(id: 42), Item(id: 43)]))
        #expect(try await refresh.value?.value.count == 2)
        #expect(try await older.value == .updated)
        #expect(try await repository.value(for: "list", policy: .returnCacheDontLoad)?.isStale == false)
    }

    /// A read that serves the cache, of a key removed while a fetch that started before was on
    /// its way: that fetch stores nothing (the removal wins), and the miss is fetched again.
    @Test(arguments: [CachePolicy.returnCacheElseLoad, .returnCacheThenLoad])
    func aCacheFirstReadOfAKeyRemovedDuringAFetchIsAnsweredByAFetchThatStartedAfter(policy: CachePolicy)
        async throws
    {
        let loader = ControlledLoader<String, String>()
        let repository = repository(loader)
        let (older, request) = try await olderRefresh(repository, loader)
        try await repository.remove("todos")  // a sign-out, say
        let read = Task { try await repository.value(for: "todos", policy: policy) }
        await waitForCallers(2, of: repository)
        #expect(loader.complete(request, returning: "the first account's"))
        #expect(loader.complete(try await loader.call(1), returning: "the second account's"))
        #expect(try await read.value?.value == "the second account's")
        #expect(try await older.value == .notModified)
    }

    /// With nothing done to the key since its request started, a refresh joins the fetch in
    /// flight, as documented: one request.
    @Test func aRefreshWithNothingDoneSinceJoinsTheFetchInFlight() async throws {
        let loader = ControlledLoader<String, String>()
        let repository = repository(loader)
        let (older, request) = try await olderRefresh(repository, loader)
        let refresh = Task { try await repository.refresh("todos") }
        await waitForCallers(2, of: repository)
        #expect(loader.complete(request, returning: "fetched"))
        #expect(try await refresh.value == .updated)
        #expect(try await older.value == .updated)
        #expect(try await repository.value(for: "todos", policy: .returnCacheDontLoad)?.isStale == false)
        #expect(loader.calls.count == 1)
    }
}
