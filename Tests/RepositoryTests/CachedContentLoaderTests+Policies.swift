import ContentLoading
import ContentLoadingRepository
import ContentLoadingTesting
import Foundation
import Testing

/// A model's read goes on after its refresh completed (it observes the key), so every refresh
/// policy starts a new read once the running one caught up: with `joinInFlight` or
/// `enqueueLatest`, another key was never shown, and `enqueueLatest`'s handle never settled.
extension CachedContentLoaderTests {
    /// A model that reads with `returnCacheElseLoad` and refreshes with `refreshPolicy`, and the
    /// fetch the test completes.
    func readingModel(refreshPolicy: RefreshPolicy) -> (
        CachedContentLoader<String, String>, ControlledLoader<String, String>
    ) {
        let loader = ControlledLoader<String, String>()
        let model = CachedContentLoader(
            repository: KeyedRepository<String, String>(fetch: loader.load), policy: .returnCacheElseLoad,
            refreshPolicy: refreshPolicy)
        return (model, loader)
    }

    @Test(arguments: [RefreshPolicy.latestWins, .joinInFlight, .enqueueLatest])
    func aRefreshAfterTheReadCaughtUpReadsAgain(_ refreshPolicy: RefreshPolicy) async throws {
        let (model, loader) = readingModel(refreshPolicy: refreshPolicy)
        let first = model.refresh("a")
        loader.complete(try await loader.call(0), returning: "A")
        #expect(await first.completed() == .success("A"))

        let second = model.refresh("b")
        loader.complete(try await loader.call(1), returning: "B")
        #expect(try await second.completed(timeout: WaitTimeout.defaultTimeout) == .success("B"))
    }

    @Test func aRefreshQueuedWhileTheReadFetchesRunsWhenTheFetchHasEnded() async throws {
        let (model, loader) = readingModel(refreshPolicy: .enqueueLatest)
        _ = model.refresh("a")
        let fetchOfA = try await loader.call(0)
        let queued = model.refresh("b")
        loader.complete(fetchOfA, returning: "A")
        loader.complete(try await loader.call(1), returning: "B")
        #expect(try await queued.completed(timeout: WaitTimeout.defaultTimeout) == .success("B"))
    }

    @Test func aRefreshWhileTheReadFetchesJoinsTheFetch() async throws {
        let (model, loader) = readingModel(refreshPolicy: .joinInFlight)
        let first = model.refresh("a")
        let fetch = try await loader.call(0)
        let joined = model.refresh("a")
        loader.complete(fetch, returning: "A")
        #expect(await joined.completed() == .success("A"))
        #expect(await first.completed() == .success("A"))
        #expect(loader.calls.count == 1, "one request")
    }
}
