import ContentLoading
import ContentLoadingRepository
import ContentLoadingTesting
import Foundation
import Testing

/// A network-first model (`loadElseReturnCache`) whose fetch fails shows what the tiers hold
/// with the error beside it, never a blank error first; with nothing cached, the error.
extension CachedContentLoaderTests {
    @Test func aNetworkFirstFailureShowsTheCachedValueWithTheErrorBesideIt() async throws {
        let loader = ControlledLoader<String, String>()
        let repository = KeyedRepository<String, String>(fetch: loader.load)
        try await repository.save("cached", for: "a")
        let model = CachedContentLoader(repository: repository, policy: .loadElseReturnCache)
        let recorder = StateRecorder(model)
        let refresh = model.refresh("a")
        loader.complete(try await loader.call(0), throwing: URLError(.notConnectedToInternet))
        let completed = await refresh.completed()
        #expect(completed.phase == .error && completed.content == "cached", "the error is not lost: \(completed)")
        let states = try await recorder.states(count: 4)
        #expect(states.prefix(3) == [.unloaded, .loading(previous: nil), .success("cached")], "no blank error first")
        #expect(states.last?.phase == .error && states.last?.content == "cached")
    }

    @Test func aNetworkFirstFailureWithNothingCachedStaysAnError() async throws {
        let loader = ControlledLoader<String, String>()
        let model = CachedContentLoader(
            repository: KeyedRepository<String, String>(fetch: loader.load), policy: .loadElseReturnCache)
        let refresh = model.refresh("a")
        loader.complete(try await loader.call(0), throwing: URLError(.notConnectedToInternet))
        let state = await refresh.completed()
        #expect(state.phase == .error, "the error is not hidden by the empty cache: \(state)")
        #expect(model.state.phase == .error)
    }
}
