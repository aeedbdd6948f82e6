import ContentLoading
import ContentLoadingRepository
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// `settled()` is "something is shown"; `completed()` is "the refresh is done": on a cached
/// loader, the revalidation ended and what it fetched is stored and shown. A pull-to-refresh
/// spinner waits for the second.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct RefreshCompletionTests {
    @Test func aCachedRefreshCompletesOnlyOnceItsFetchIsStoredAndShown() async throws {
        let path = try temporaryCachePath()
        try await KeyedRepository<String, String>(disk: try DiskCache(.file(path: path)), fetch: { _ in "" })
            .save("cached", for: "a")
        let loader = ControlledLoader<String, String>()
        let repository = KeyedRepository<String, String>(disk: try DiskCache(.file(path: path)), fetch: loader.load)
        let model = CachedContentLoader(repository: repository)

        let refresh = model.refresh("a")
        #expect(try await refresh.settled(timeout: WaitTimeout.defaultTimeout) == .success("cached"))
        #expect(!refresh.isCompleted, "the revalidation runs")
        #expect(model.isRefreshing)

        loader.complete(try await loader.call(0), returning: "fetched")
        #expect(try await refresh.completed(timeout: WaitTimeout.defaultTimeout) == .success("fetched"))
        #expect(refresh.isCompleted)
        #expect(!model.isRefreshing)
        // NB: stored: a new repository over the same file reads it without a fetch.
        let reopened = KeyedRepository<String, String>(disk: try DiskCache(.file(path: path)), fetch: { _ in "" })
        #expect(try await reopened.value(for: "a", policy: .returnCacheDontLoad)?.value == "fetched")
    }

    @Test func aFailedRevalidationCompletesTheRefreshWithTheErrorAndTheContent() async throws {
        let loader = ControlledLoader<String, String>()
        let repository = KeyedRepository<String, String>(fetch: loader.load)
        try await repository.save("cached", for: "a")
        let model = CachedContentLoader(repository: repository)
        let refresh = model.refresh("a")
        _ = try await refresh.settled(timeout: WaitTimeout.defaultTimeout)
        loader.complete(try await loader.call(0), throwing: URLError(.notConnectedToInternet))
        let state = try await refresh.completed(timeout: WaitTimeout.defaultTimeout)
        #expect(state.phase == .error)
        #expect(state.content == "cached")
    }

    @Test func aReadThatFetchesNothingIsCompleteWhenItSettles() async throws {
        let repository = KeyedRepository<String, String>(fetch: { _ in
            Issue.record("no fetch"); return ""
        })
        try await repository.save("cached", for: "a")
        let model = CachedContentLoader(repository: repository, policy: .returnCacheDontLoad)
        #expect(try await model.refresh("a").completed(timeout: WaitTimeout.defaultTimeout) == .success("cached"))
    }

    @Test func aLaterSaveStillReachesTheModelAfterTheRefreshCompleted() async throws {
        let repository = KeyedRepository<String, String>(fetch: { _ in "fetched" })
        let model = CachedContentLoader(repository: repository)
        let recorder = StateRecorder(model)
        #expect(try await model.refresh("a").completed(timeout: WaitTimeout.defaultTimeout) == .success("fetched"))
        try await repository.save("edited", for: "a")
        #expect(try await recorder.states(count: 4).last == .success("edited"))
    }

    @Test func aSupersededRefreshCompletesWithTheNewerOne() async throws {
        let loader = ControlledLoader<String, Int>()
        let model = ContentLoadingViewModel<String, Int>(load: loader.load)
        let first = model.refresh("a")
        _ = try await loader.call(0)
        let second = model.refresh("b")
        #expect(!first.isCompleted)
        loader.complete(try await loader.call(1), returning: 2)
        #expect(await first.completed() == .success(2))
        #expect(second.isCompleted)
    }

    @Test func aProducerThatCaughtUpCompletesItsRefreshAndGoesOn() async throws {
        let (later, laterValues) = AsyncStream<Int>.makeStream()
        final class Model: ContentLoadingViewModel<Void, Int> {
            let later: AsyncStream<Int>
            init(later: AsyncStream<Int>) {
                self.later = later
                super.init()
            }
            override func producer(for input: Void) -> ContentProducer<Int> {
                .reporting { [later] load in
                    await load.caughtUp()  // nothing shown yet: no effect
                    await load.send(.value(1))
                    await load.caughtUp()
                    for await value in later { await load.send(.value(value)) }
                }
            }
        }
        let model = Model(later: later)
        let recorder = StateRecorder(model)
        let refresh = model.refresh()
        #expect(try await refresh.completed(timeout: WaitTimeout.defaultTimeout) == .success(1))
        #expect(model.isLoading == false)
        laterValues.yield(2)
        #expect(try await recorder.states(count: 4) == [.unloaded, .loading(previous: nil), .success(1), .success(2)])
        laterValues.finish()
    }

    @Test func cancellingTheModelCompletesEveryRefresh() async throws {
        let loader = ControlledLoader<String, Int>()
        let model = ContentLoadingViewModel<String, Int>(load: loader.load)
        let refresh = model.refresh("a")
        _ = try await loader.call(0)
        model.cancel()
        #expect(await refresh.completed() == .unloaded)
    }
}
