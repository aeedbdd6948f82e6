import ContentLoading
import ContentLoadingRepository
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// A view model bound to keyed reads: a disk hit is the first settled state, and the model
/// says it is refreshing while the revalidation runs, content kept.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct CachedContentLoaderTests {
    /// A repository over the cache file at `path`, with a fetch the test completes.
    func repository(at path: String, fetch loader: ControlledLoader<String, String>) throws
        -> KeyedRepository<String, String>
    {
        KeyedRepository(disk: try DiskCache(.file(path: path)), fetch: loader.load)
    }

    @Test func aDiskHitIsTheFirstSettledStateAndTheModelSaysItIsRefreshing() async throws {
        let path = try temporaryCachePath()
        let earlier = ControlledLoader<String, String>()
        try await repository(at: path, fetch: earlier).save("cached", for: "seller-7")

        // A new process: cold memory, the value on disk, a fetch held open by the test.
        let loader = ControlledLoader<String, String>()
        let model = CachedContentLoader(repository: try repository(at: path, fetch: loader))
        let recorder = StateRecorder(model)
        #expect(await model.refresh("seller-7").settled() == .success("cached"))
        #expect(model.isRefreshing, "the revalidation runs")
        #expect(try await recorder.states(count: 2) == [.unloaded, .success("cached")], "no blank loading first")

        loader.complete(try await loader.call(0), returning: "fetched")
        #expect(try await recorder.states(count: 3).last == .success("fetched"))
        #expect(!model.isRefreshing)
        #expect(earlier.calls.isEmpty)
    }

    @Test func aFailedRevalidationKeepsTheCachedContent() async throws {
        let path = try temporaryCachePath()
        try await repository(at: path, fetch: ControlledLoader()).save("cached", for: "a")
        let loader = ControlledLoader<String, String>()
        let model = CachedContentLoader(repository: try repository(at: path, fetch: loader))
        let recorder = StateRecorder(model)
        _ = await model.refresh("a").settled()
        loader.complete(try await loader.call(0), throwing: URLError(.notConnectedToInternet))
        let failed = try await recorder.states(count: 3).last
        #expect(failed?.phase == .error)
        #expect(failed?.content == "cached")
        #expect(!model.isRefreshing)
    }

    @Test func aNotModifiedRevalidationEndsTheRefreshingIndicatorWithoutANewState() async throws {
        let loader = ControlledLoader<String, FetchResult<String>>()
        let repository = KeyedRepository<String, String>(fetchIfChanged: { key, _ in try await loader.load(key) })
        try await repository.save("cached", for: "a")
        let model = CachedContentLoader(repository: repository)
        let recorder = StateRecorder(model)
        _ = await model.refresh("a").settled()
        #expect(model.isRefreshing)
        loader.complete(try await loader.call(0), returning: .notModified(Validators(entityTag: "\"1\"")))
        await repository.fetchSettled("a")
        // NB: a later write follows the confirmation in the read's stream, so once its state
        // arrives the confirmation has been handled.
        try await repository.save("edited", for: "a")
        #expect(try await recorder.states(count: 3) == [.unloaded, .success("cached"), .success("edited")])
        #expect(!model.isRefreshing)
    }

    @Test func aSaveElsewhereReachesTheModelAndEndsTheRefreshingIndicator() async throws {
        let loader = ControlledLoader<String, String>()
        let repository = KeyedRepository<String, String>(fetch: loader.load)
        try await repository.save("cached", for: "a")
        let model = CachedContentLoader(repository: repository)
        let recorder = StateRecorder(model)
        _ = await model.refresh("a").settled()
        #expect(model.isRefreshing)
        try await repository.save("edited", for: "a")
        #expect(try await recorder.states(count: 3).last == .success("edited"))
        #expect(!model.isRefreshing, "the fetch that started before the save cannot overwrite it")
        loader.complete(try await loader.call(0), returning: "stale")
        await repository.fetchSettled("a")
        #expect(model.state == .success("edited"))
    }

    @Test func aMissShowsLoadingWhileTheFetchRuns() async throws {
        let loader = ControlledLoader<String, String>()
        let model = CachedContentLoader(repository: try repository(at: try temporaryCachePath(), fetch: loader))
        let recorder = StateRecorder(model)
        let refresh = model.refresh("a")
        let call = try await loader.call(0)
        #expect(try await recorder.states(count: 2) == [.unloaded, .loading(previous: nil)])
        #expect(!model.isRefreshing, "nothing cached is shown")
        loader.complete(call, returning: "fetched")
        #expect(await refresh.settled() == .success("fetched"))
        #expect(try await recorder.states(count: 3).last == .success("fetched"))
    }

    @Test func aLaterKeyShowsTheEarlierContentWhileItLoads() async throws {
        let loader = ControlledLoader<String, String>()
        let repository = KeyedRepository<String, String>(fetch: loader.load)
        try await repository.save("first", for: "a")
        let model = CachedContentLoader(repository: repository, policy: .returnCacheElseLoad)
        #expect(await model.refresh("a").settled() == .success("first"))
        let refresh = model.refresh("b")
        #expect(model.state == .loading(previous: "first"), "content shown: loading at once, content kept")
        loader.complete(try await loader.call(0), returning: "second")
        #expect(await refresh.settled() == .success("second"))
    }

    @Test func requireCacheOnAMissIsEmptyWithoutARequest() async throws {
        let loader = ControlledLoader<String, String>()
        let model = CachedContentLoader(
            repository: KeyedRepository<String, String>(fetch: loader.load), policy: .returnCacheDontLoad)
        #expect(await model.refresh("a").settled() == .empty)
        #expect(loader.calls.isEmpty)
    }
}
