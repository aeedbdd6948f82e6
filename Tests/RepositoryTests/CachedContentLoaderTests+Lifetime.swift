import ContentLoading
import ContentLoadingRepository
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// A revalidation is a running load to the model's lifetime events, and belongs to the key it
/// revalidates.
extension CachedContentLoaderTests {
    /// A model with `.everyAppearance` that appeared: it shows the value cached for "a" and
    /// revalidates it through `loader`'s call 0, which the test answers.
    func appearedWhileRevalidating() async throws -> (
        ControlledLoader<String, String>, KeyedRepository<String, String>, CachedContentLoader<String, String>,
        ControlledLoader<String, String>.Call
    ) {
        let loader = ControlledLoader<String, String>()
        let repository = KeyedRepository<String, String>(fetch: loader.load)
        try await repository.save("cached", for: "a")
        let model = CachedContentLoader(repository: repository, lifetimeTrigger: .everyAppearance, initialInput: "a")
        model.viewLifetime = .willAppear
        let call = try await loader.call(0)
        try #require(await yieldUntil { model.state == .success("cached") })
        #expect(model.isRefreshing, "the revalidation runs")
        return (loader, repository, model, call)
    }

    @Test func theCancelEventStopsTheRevalidationAndKeepsTheContent() async throws {
        let (loader, repository, model, _) = try await appearedWhileRevalidating()

        model.viewLifetime = .didDisappear
        #expect(await yieldUntil { loader.pendingCalls.isEmpty }, "the disappearance cancelled the fetch")
        #expect(await yieldUntil { !repository.isFetching("a") })
        // NB: the stopped read says so from its task, a hop onto the main actor later.
        #expect(await yieldUntil { !model.isRefreshing })
        #expect(model.state == .success("cached"), "the content stays, with no error")

        model.viewLifetime = .willAppear
        loader.complete(try await loader.call(1), returning: "fetched")
        #expect(await yieldUntil { model.state == .success("fetched") }, "the next appearance revalidates again")
    }

    @Test func anAppearanceRightAfterTheCancelEventRevalidatesAgain() async throws {
        let (loader, _, model, _) = try await appearedWhileRevalidating()

        // The read the cancel stopped has not said so yet when the view appears again.
        model.viewLifetime = .didDisappear
        model.viewLifetime = .willAppear
        #expect(model.state == .loading(previous: "cached"), "the appearance started a read")
        // NB: the new read joins the first fetch if it starts before the stopped read has let
        // it go, or makes another: whichever is on the way answers.
        let answered = await yieldUntil {
            for call in loader.pendingCalls { loader.complete(call, returning: "fetched") }
            return model.state == .success("fetched")
        }
        #expect(answered)
        #expect(await yieldUntil { !model.isRefreshing })
    }

    @Test func anAppearanceDuringTheRevalidationStartsNoSecondRead() async throws {
        let (loader, _, model, call) = try await appearedWhileRevalidating()
        let recorder = StateRecorder(model)
        model.viewLifetime = .willAppear
        loader.complete(call, returning: "fetched")
        #expect(try await recorder.states(count: 2) == [.success("cached"), .success("fetched")])
        #expect(!model.isRefreshing)
        #expect(loader.calls.count == 1)
    }

    @Test func anotherKeyShowsNothingOfTheEarlierKeysRevalidation() async throws {
        let loader = ControlledLoader<String, String>()
        let repository = KeyedRepository<String, String>(fetch: loader.load)
        try await repository.save("cached", for: "a")
        let model = CachedContentLoader(repository: repository)
        #expect(await model.refresh("a").settled() == .success("cached"))
        #expect(model.isRefreshing)
        _ = try await loader.call(0)

        let refresh = model.refresh("b")
        #expect(!model.isRefreshing, "nothing of b is cached: b loads, it does not refresh")
        let call = try await loader.call(1)
        #expect(model.state == .loading(previous: "cached"))
        #expect(!model.isRefreshing)
        loader.complete(call, returning: "fetched b")
        #expect(await refresh.settled() == .success("fetched b"))
        #expect(!model.isRefreshing)
    }
}
