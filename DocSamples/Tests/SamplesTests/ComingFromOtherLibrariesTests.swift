import ContentLoading
import ContentLoadingRepository
import ContentLoadingTesting
import Foundation
import Samples
import Testing

/// "Coming from Store5 or TanStack Query": its samples run, and each behaviour its tables map
/// checked as those libraries' own tests check it (Store5's `FlowStoreTests`,
/// `ClearStoreByKeyTests`; TanStack Query's query and query-client tests), through the kit's
/// public API only.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct ComingFromOtherLibrariesTests {
    typealias Todo = ComingFromOtherLibraries.Todo
    struct Outage: Error {}
    struct Busy: RetryableError { var isTransient: Bool { true } }

    /// A server that answers each key with one to-do naming the key and how many times it was
    /// asked for it, or fails while it is told to.
    final class Server: ComingFromOtherLibraries.TodosAPI, @unchecked Sendable {
        private let lock = NSLock()
        private var asked: [String: Int] = [:]
        private var failures: [any Error] = []

        /// The next fetches fail with `errors`, one each, in order.
        func fail(with errors: any Error...) { lock.withLock { failures = errors } }
        func fetches(_ key: String) -> Int { lock.withLock { asked[key, default: 0] } }

        func todos(_ key: String) async throws -> [Todo] {
            try lock.withLock {
                asked[key, default: 0] += 1
                if !failures.isEmpty { throw failures.removeFirst() }
                return [Todo(id: 1, title: "\(key) #\(asked[key]!)")]
            }
        }
    }

    /// A wall clock the test sets.
    final class TestTime: @unchecked Sendable {
        private let lock = NSLock()
        private var date = Date(timeIntervalSince1970: 0)

        func advance(by seconds: TimeInterval) { lock.withLock { date += seconds } }
        func read() -> Date { lock.withLock { date } }
    }

    /// What an updater was given, call by call.
    final class Given: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [[Todo]?] = []

        func record(_ value: [Todo]?) { lock.withLock { values.append(value) } }
        var all: [[Todo]?] { lock.withLock { values } }
    }

    let server = Server()

    /// Returns once the fetch of `key` is no longer in flight and `loader` holds no call open:
    /// the reader's task lets go of its fetch a moment after its read ended. (A fetch that is
    /// never let go fails the test at the suite's time limit.)
    func letGo(of key: String, in todos: KeyedRepository<String, [Todo]>, loader: ControlledLoader<String, [Todo]>)
        async throws
    {
        while todos.isFetching(key) || !loader.pendingCalls.isEmpty {
            try Task.checkCancellation()
            await Task.yield()
        }
    }

    func todo(_ title: String) -> [Todo] { [Todo(id: 1, title: title)] }

    /// A repository of the server whose values go stale after 30 seconds of `now`.
    func staleAfterThirtySeconds(on now: TestTime) -> KeyedRepository<String, [Todo]> {
        KeyedRepository(ages: CacheAges(staleAfter: .seconds(30), expireAfter: .seconds(3_600)), now: { now.read() }) {
            try await self.server.todos($0)
        }
    }

    // MARK: - The samples

    @Test func theTanStackSampleFetchesOnceThenServesTheSaveAndTheUpdateAndRemoves() async throws {
        let read = try await ComingFromOtherLibraries.queries(
            api: server, updated: [Todo(id: 2, title: "saved")], added: Todo(id: 3, title: "added"))
        #expect(read.open?.value == todo("todos/open #1"))
        #expect(read.open?.origin == .remote)
        #expect(read.held?.value == [Todo(id: 2, title: "saved"), Todo(id: 3, title: "added")])
        #expect(read.afterRemoval == nil)
        #expect(server.fetches("todos/open") == 1, "a save or an update is no request; an invalidation with no reader fetches nothing")
    }

    @Test func theStore5SampleGetsFreshLocalOnlyAndClears() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("store5-\(UUID()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let read = try await ComingFromOtherLibraries.store(api: server, cachePath: path, key: "k")
        #expect(read.cached?.value == todo("k #1"))
        #expect(read.fetched?.value == todo("k #2"))
        #expect(read.fetched?.origin == .remote)
        #expect(read.local?.value == todo("k #2"))
        #expect(read.local?.origin == .memory)
        #expect(read.afterClear == nil)
        #expect(server.fetches("k") == 2)
    }

    // MARK: - Store5

    /// Store5: `stream(StoreReadRequest.cached(key, refresh = true))` with a cached value.
    @Test func aCachedReadWithRefreshServesTheCacheThenTheFetchedValue() async throws {
        let todos = KeyedRepository<String, [Todo]> { try await self.server.todos($0) }
        _ = try await todos.value(for: "k")
        let events = StreamRecorder(todos.events(for: "k", policy: .returnCacheThenLoad))
        let seen = try await events.values(count: 2).map(\.cachedValue)
        #expect(seen.map { $0?.value } == [todo("k #1"), todo("k #2")])
        #expect(seen.map { $0?.origin } == [.memory, .remote])
        #expect(seen.map { $0?.isRefreshing } == [true, false], "the cached value says a fetch is on the way")
    }

    /// Store5's `errorTest`: a fetch error is an event, and a later write still reaches the stream.
    @Test func aFetchErrorIsAnEventAndTheStreamGoesOn() async throws {
        let todos = KeyedRepository<String, [Todo]> { try await self.server.todos($0) }
        server.fail(with: Outage())
        let events = StreamRecorder(todos.events(for: "k", policy: .returnCacheThenLoad))
        let first = try await events.next()
        guard case .error(let error)? = first else {
            Issue.record("expected the fetch's error first, got \(String(describing: first))")
            return
        }
        #expect(error is Outage)
        try await todos.save(todo("local"), for: "k")
        let saved = try await events.next()?.cachedValue
        #expect(saved?.value == todo("local"))
        #expect(saved?.origin == .local)
    }

    /// Store5: `fresh(key, fallBackToSourceOfTruth = true)` when the fetch fails.
    @Test func aNetworkFirstReadFallsBackToTheCacheWhenTheFetchFails() async throws {
        let todos = KeyedRepository<String, [Todo]> { try await self.server.todos($0) }
        _ = try await todos.value(for: "k")
        server.fail(with: Outage())
        let fallback = try await todos.value(for: "k", policy: .loadElseReturnCache)
        #expect(fallback?.value == todo("k #1"))
        #expect(server.fetches("k") == 2)

        server.fail(with: Outage())
        let events = StreamRecorder(todos.events(for: "k", policy: .loadElseReturnCache))
        let seen = try await events.values(count: 2)
        guard case .error(let error) = seen[0] else {
            Issue.record("expected the fetch's error first, got \(seen)")
            return
        }
        #expect(error is Outage)
        #expect(seen[1].cachedValue?.value == todo("k #1"), "then the cached value")
        #expect(server.fetches("k") == 3)
    }

    /// Store5: `localOnly(key)` on a miss.
    @Test func aCacheOnlyReadOfAMissIsNoValueAndNoRequest() async throws {
        let todos = KeyedRepository<String, [Todo]> { try await self.server.todos($0) }
        #expect(try await todos.value(for: "k", policy: .returnCacheDontLoad) == nil)
        #expect(server.fetches("k") == 0)
    }

    /// Store5's `ClearStoreByKeyTests`: a cleared key reads as a miss, and its readers hear it.
    @Test func aRemovedKeyIsNoValueToItsReadersAndIsFetchedOnTheNextRead() async throws {
        let todos = KeyedRepository<String, [Todo]> { try await self.server.todos($0) }
        let events = StreamRecorder(todos.events(for: "k"))
        #expect(try await events.next()?.cachedValue?.value == todo("k #1"))
        try await todos.remove("k")
        guard case .noValue? = try await events.next() else {
            Issue.record("the reader did not hear of the removal")
            return
        }
        #expect(try await todos.value(for: "k")?.value == todo("k #2"))
    }

    // MARK: - TanStack Query

    /// TanStack Query: concurrent queries of one key share one request.
    @Test func concurrentReadsOfOneKeyMakeOneFetch() async throws {
        let loader = ControlledLoader<String, [Todo]>()
        let todos = KeyedRepository<String, [Todo]>(fetch: loader.load)
        let reads = (0..<20).map { _ in Task { try await todos.value(for: "k")?.value } }
        let call = try await loader.call(0)
        while todos.waitingCallers(for: "k") < 20 { await Task.yield() }
        #expect(loader.complete(call, returning: todo("shared")))
        for read in reads { #expect(try await read.value == todo("shared")) }
        #expect(loader.calls.count == 1)
    }

    /// TanStack Query's `staleTime`: fresh data is served with no request; stale data is served
    /// and fetched again in the background.
    @Test func freshDataIsServedAloneAndStaleDataIsServedThenRevalidated() async throws {
        let now = TestTime()
        let todos = staleAfterThirtySeconds(on: now)
        _ = try await todos.value(for: "k")
        now.advance(by: 29)
        let fresh = try await todos.value(for: "k")
        #expect(fresh?.isStale == false)
        #expect(server.fetches("k") == 1)

        now.advance(by: 2)
        let stale = try await todos.value(for: "k")
        #expect(stale?.value == todo("k #1"))
        #expect(stale?.isStale == true)
        #expect(stale?.isRefreshing == true)
        await todos.fetchSettled("k")
        #expect(server.fetches("k") == 2)
        #expect(todos.cachedValue(for: "k")?.value == todo("k #2"))
    }

    /// TanStack Query's "fetchQuery should only fetch if the data is older then the given stale
    /// time" (seconds for its milliseconds): a value younger than the stale time is returned, an
    /// older one is fetched again and the fetched one returned.
    @Test func fetchQueryFetchesOnlyWhenTheDataIsOlderThanTheStaleTimeGiven() async throws {
        let now = TestTime()
        let todos = staleAfterThirtySeconds(on: now)
        try await todos.save(todo("set"), for: "k")
        let first = try await todos.freshValue(for: "k", maxAge: .seconds(100))
        now.advance(by: 11)
        let second = try await todos.freshValue(for: "k", maxAge: .seconds(10))
        let third = try await todos.freshValue(for: "k", maxAge: .seconds(10))
        now.advance(by: 11)
        let fourth = try await todos.freshValue(for: "k", maxAge: .seconds(10))
        #expect([first, second, third, fourth].map { $0?.value } == [todo("set"), todo("k #1"), todo("k #1"), todo("k #2")])
        #expect(server.fetches("k") == 2)
    }

    /// TanStack Query's `fetchQuery` with data past its `staleTime` whose fetch fails: the error,
    /// not the stale data.
    @Test func fetchQueryOfStaleDataThrowsTheFetchError() async throws {
        let now = TestTime()
        let todos = staleAfterThirtySeconds(on: now)
        _ = try await todos.freshValue(for: "k")
        now.advance(by: 31)
        server.fail(with: Outage())
        await #expect(throws: Outage.self) { try await todos.freshValue(for: "k") }
        #expect(todos.cachedValue(for: "k")?.value == todo("k #1"), "the stale data stays cached")
    }

    /// TanStack Query's `useQuery` with a `staleTime`: a view model that reads the cache first
    /// fetches only a missing or stale value.
    @Test func aCacheFirstModelFetchesOnlyAMissingOrStaleValue() async throws {
        let now = TestTime()
        let todos = staleAfterThirtySeconds(on: now)
        let model = CachedContentLoader(repository: todos, policy: .returnCacheElseLoad)
        #expect(await model.refresh("k").completed().content == todo("k #1"))
        now.advance(by: 29)
        #expect(await model.refresh("k").completed().content == todo("k #1"))
        #expect(server.fetches("k") == 1, "fresh: served with no request")
        now.advance(by: 2)
        #expect(await model.refresh("k").completed().content == todo("k #2"), "stale: fetched again")
        #expect(server.fetches("k") == 2)
    }

    /// TanStack Query's `invalidateQueries({ queryKey: ['todos'] })`: the matching keys' live
    /// readers get them fetched again; other keys are left alone.
    @Test func aPrefixInvalidationRefetchesTheMatchingKeysThatHaveReaders() async throws {
        let todos = KeyedRepository<String, [Todo]> { try await self.server.todos($0) }
        let open = StreamRecorder(todos.events(for: "todos/open"))
        let user = StreamRecorder(todos.events(for: "users/1"))
        #expect(try await open.next()?.cachedValue?.value == todo("todos/open #1"))
        #expect(try await user.next()?.cachedValue?.value == todo("users/1 #1"))
        todos.invalidate(keysWithPrefix: "todos/")
        #expect(try await open.next()?.cachedValue?.value == todo("todos/open #2"))
        await todos.fetchSettled("users/1")
        #expect(server.fetches("users/1") == 1)
    }

    /// TanStack Query's "refetchQueries should be able to refetch all fresh queries": a fresh
    /// value is fetched again, and its observer gets the new one.
    @Test func aRefreshFetchesAFreshValueAgainAndItsReaderGetsIt() async throws {
        let todos = staleAfterThirtySeconds(on: TestTime())
        let events = StreamRecorder(todos.events(for: "k"))
        #expect(try await events.next()?.cachedValue?.value == todo("k #1"))
        #expect(todos.cachedValue(for: "k")?.isStale == false)
        #expect(try await todos.refresh("k") == .updated)
        #expect(try await events.next()?.cachedValue?.value == todo("k #2"))
        #expect(server.fetches("k") == 2)
    }

    /// TanStack Query's `setQueryData`: every observer gets the data, and no request is made.
    @Test func aSaveReachesTheLiveReaderWithoutARequest() async throws {
        let todos = KeyedRepository<String, [Todo]> { try await self.server.todos($0) }
        let events = StreamRecorder(todos.events(for: "k"))
        _ = try await events.next()
        try await todos.save(todo("set"), for: "k")
        let saved = try await events.next()?.cachedValue
        #expect(saved?.value == todo("set"))
        #expect(saved?.origin == .local)
        #expect(server.fetches("k") == 1)
    }

    /// TanStack Query's "setQueryData should accept an update function": the updater gets the
    /// data held, its result is the data, and every observer gets it with no request.
    @Test func anUpdaterGetsTheValueHeldAndEveryReaderGetsItsResultWithoutARequest() async throws {
        let todos = KeyedRepository<String, [Todo]> { try await self.server.todos($0) }
        let events = StreamRecorder(todos.events(for: "k"))
        #expect(try await events.next()?.cachedValue?.value == todo("k #1"))
        let given = Given()
        let updated = try await todos.update("k") { held in
            given.record(held)
            return held.map { $0 + [Todo(id: 2, title: "added")] }
        }
        let expected = todo("k #1") + [Todo(id: 2, title: "added")]
        #expect(given.all == [todo("k #1")])
        #expect(updated == expected)
        let delivered = try await events.next()?.cachedValue
        #expect(delivered?.value == expected)
        #expect(delivered?.origin == .local)
        #expect(server.fetches("k") == 1)
    }

    /// TanStack Query's "setQueryData should not create a new query if query was not found and
    /// data is undefined": an updater of a key with nothing held gets `nil`, and its `nil`
    /// stores nothing.
    @Test func anUpdaterOfAKeyWithNothingHeldGetsNilAndItsNilStoresNothing() async throws {
        let todos = KeyedRepository<String, [Todo]> { try await self.server.todos($0) }
        let given = Given()
        let updated = try await todos.update("k") { held in
            given.record(held)
            return nil
        }
        #expect(given.all == [nil])
        #expect(updated == nil)
        #expect(todos.cachedValue(for: "k") == nil)
        #expect(server.fetches("k") == 0)
    }

    /// TanStack Query's "setQueryData should not set isFetching to false"; unlike TanStack Query,
    /// the fetch that was on the way when the data was set does not overwrite it.
    @Test func aSaveDuringAFetchLeavesItFetchingAndTheFetchDoesNotOverwriteTheSave() async throws {
        let loader = ControlledLoader<String, [Todo]>()
        let todos = KeyedRepository<String, [Todo]>(fetch: loader.load)
        let events = StreamRecorder(todos.events(for: "k"))
        let call = try await loader.call(0)
        try await todos.save(todo("set"), for: "k")
        #expect(try await events.next()?.cachedValue?.value == todo("set"))
        #expect(todos.isFetching("k"), "the reader still waits for its fetch")
        #expect(loader.complete(call, returning: todo("fetched")))
        await todos.fetchSettled("k")
        #expect(todos.cachedValue(for: "k")?.value == todo("set"))
        // NB: the reader's next event is the next save: the fetch delivered nothing over the first.
        try await todos.save(todo("set again"), for: "k")
        #expect(try await events.next()?.cachedValue?.value == todo("set again"))
    }

    /// A one-shot read that waits for a fetch returns a save made meanwhile, and the fetch,
    /// which nobody waits for any more, is cancelled (its answer would not be stored anyway).
    @Test func aOneShotReadAnsweredByASaveLetsItsFetchGo() async throws {
        let loader = ControlledLoader<String, [Todo]>()
        let todos = KeyedRepository<String, [Todo]>(fetch: loader.load)
        let read = Task { try await todos.value(for: "k")?.value }
        let call = try await loader.call(0)
        try await todos.save(todo("set"), for: "k")
        #expect(try await read.value == todo("set"))
        try await letGo(of: "k", in: todos, loader: loader)
        #expect(!loader.complete(call, returning: todo("fetched")), "the fetch saw its cancellation")
        #expect(todos.cachedValue(for: "k")?.value == todo("set"))
    }

    /// TanStack Query's `cancelQueries`: a fetch nobody waits for any more is cancelled and
    /// stores nothing.
    @Test func aFetchWhoseOnlyReaderLeavesIsCancelledAndStoresNothing() async throws {
        let loader = ControlledLoader<String, [Todo]>()
        let todos = KeyedRepository<String, [Todo]>(fetch: loader.load)
        let read = Task { try await todos.value(for: "k") }
        let call = try await loader.call(0)
        read.cancel()
        _ = try? await read.value
        try await letGo(of: "k", in: todos, loader: loader)
        #expect(!loader.complete(call, returning: todo("late")), "the fetch saw its cancellation")
        #expect(todos.cachedValue(for: "k") == nil)
    }

    /// TanStack Query's structural sharing: a fetch that brings what is held changes nothing.
    @Test func anEqualFetchIsMarkedUnchanged() async throws {
        let todos = KeyedRepository<String, [Todo]> { _ in [Todo(id: 1, title: "same")] }
        _ = try await todos.value(for: "k")
        let events = StreamRecorder(todos.events(for: "k", policy: .returnCacheThenLoad))
        let seen = try await events.values(count: 2).map(\.cachedValue)
        #expect(seen.map { $0?.value } == [todo("same"), todo("same")])
        #expect(seen.map { $0?.isUnchanged } == [false, true])
    }

    /// TanStack Query's `retry`: a failed fetch is tried again, but here only a transient failure.
    @Test func aTransientFailureIsRetriedAndAnotherIsNot() async throws {
        let todos = KeyedRepository<String, [Todo]>(retry: RetryPolicy(attempts: 4, initialDelay: .zero)) {
            try await self.server.todos($0)
        }
        server.fail(with: Busy(), Busy())
        #expect(try await todos.value(for: "busy")?.value == todo("busy #3"))
        server.fail(with: Outage())
        await #expect(throws: Outage.self) { try await todos.value(for: "down") }
        #expect(server.fetches("down") == 1)
    }

    /// TanStack Query's `placeholderData: keepPreviousData`: the last good data stays shown
    /// through a failed refetch.
    @Test func aViewModelKeepsItsContentThroughAFailedRefresh() async throws {
        let todos = KeyedRepository<String, [Todo]> { try await self.server.todos($0) }
        let model = CachedContentLoader(repository: todos, policy: .reloadIgnoringCache)
        #expect(await model.refresh("k").completed().content == todo("k #1"))
        server.fail(with: Outage())
        let failed = await model.refresh("k").completed()
        #expect(failed.error is Outage)
        #expect(failed.content == todo("k #1"))
    }
}
