import ContentLoading
import ContentLoadingSupport
import ContentLoadingTesting
import KitTestSupport
import Observation
import Testing

/// The observed properties notify Observation (SwiftUI's mechanism) when they change.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct ObservationTests {
    /// Whether reading `read` registered a dependency that `change` then triggered.
    private func notifies(_ read: @escaping () -> Void, when change: () async throws -> Void) async rethrows -> Bool {
        let fired = Locked(false)
        withObservationTracking(read) { fired.withLock { $0 = true } }
        try await change()
        return fired.withLock { $0 }
    }

    @Test func stateContentAndIsLoadingNotifyOnRefresh() async throws {
        let model = DoublingModel()
        #expect(await notifies({ _ = model.state }, when: { model.refresh(1) }))
        await model.refresh(1).settled()
        #expect(await notifies({ _ = model.content }, when: { await model.refresh(2).settled() }))
        #expect(await notifies({ _ = model.isLoading }, when: { model.refresh(3) }))
    }

    @Test func lastErrorNotifiesWhenSetAndCleared() async throws {
        let model = DoublingModel()
        #expect(await notifies({ _ = model.lastError }, when: { await model.refresh(-1).settled() }))
        #expect(await notifies({ _ = model.lastError }, when: { await model.refresh(1).settled() }))
    }

    @Test func viewLifetimeNotifies() async throws {
        let model = DoublingModel()
        #expect(await notifies({ _ = model.viewLifetime }, when: { model.viewLifetime = .willAppear }))
    }

    @Test func nextPageStateNotifiesWhenAPageStartsAndEnds() async throws {
        let loader = ControlledLoader<PageRequest, Page<Item, Int>>()
        let model = ControlledPager(loader: loader)
        let first = model.refresh("q")
        try await loader.complete(loader.call(0), returning: page(0..<10, next: 10))
        await first.settled()
        #expect(await notifies({ _ = model.nextPageState }, when: { model.loadNextPage() }))
        #expect(model.nextPageState == .loading)
        let next = try await loader.call(1)
        let updates = StreamRecorder(model.nextPageStateUpdates)
        let ended = try await notifies(
            { _ = model.nextPageState },
            when: {
                loader.complete(next, returning: page(10..<15, next: nil))
                _ = try await updates.values(count: 2)  // loading, then endReached
            })
        #expect(ended)
        #expect(model.nextPageState == .endReached)
    }

    @Test func unrelatedPropertiesDoNotNotify() async throws {
        let model = DoublingModel()
        #expect(!(await notifies({ _ = model.viewLifetime }, when: { await model.refresh(1).settled() })))
    }
}
