import ContentLoading
import ContentLoadingRepository
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// An invalidation revalidates the key a model shows: the model says it is refreshing, content
/// kept, until the fetch delivers, finds the value unchanged or fails.
extension CachedContentLoaderTests {
    enum Answer: CaseIterable { case changed, notModified, failed }

    @Test(arguments: Answer.allCases)
    func anInvalidationSaysTheModelIsRefreshingUntilItsFetchEnds(_ answer: Answer) async throws {
        let loader = ControlledLoader<String, FetchResult<String>>()
        let repository = KeyedRepository<String, String>(fetchIfChanged: { key, _ in try await loader.load(key) })
        try await repository.save("cached", for: "a")
        let model = CachedContentLoader(repository: repository, policy: .returnCacheElseLoad)
        #expect(await model.refresh("a").completed() == .success("cached"))
        #expect(!model.isRefreshing, "a fresh value: no fetch")

        repository.invalidate("a")
        let call = try await loader.call(0)
        try #require(await yieldUntil { model.isRefreshing }, "the fetch of the key shown is on the way")
        #expect(model.state == .success("cached"), "the content stays")
        switch answer {
        case .changed: loader.complete(call, returning: .modified("fetched", Validators(entityTag: "\"2\"")))
        case .notModified: loader.complete(call, returning: .notModified(Validators(entityTag: "\"1\"")))
        case .failed: loader.complete(call, throwing: URLError(.notConnectedToInternet))
        }
        // NB: `isRefreshing` changes before the state it goes with.
        let ended: () -> Bool =
            switch answer {
            case .changed: { model.state == .success("fetched") }
            case .notModified: { !model.isRefreshing }
            case .failed: { model.state.phase == .error && model.content == "cached" }
            }
        #expect(await yieldUntil(ended), "\(model.state)")
        #expect(!model.isRefreshing, "the fetch ended")
        #expect(model.content == (answer == .changed ? "fetched" : "cached"))
    }
}
