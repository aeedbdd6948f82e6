import ContentLoading
import ContentLoadingSupport
import Observation
import Testing

/// The observed properties notify Observation (SwiftUI's mechanism) when they change.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct ObservationTests {
    /// Whether reading `read` registered a dependency that `change` then triggered.
    private func notifies(_ read: @escaping () -> Void, when change: () async -> Void) async -> Bool {
        let fired = Locked(false)
        withObservationTracking(read) { fired.withLock { $0 = true } }
        await change()
        return fired.withLock { $0 }
    }

    @Test func stateContentAndIsLoadingNotifyOnRefresh() async {
        let model = DoublingModel()
        #expect(await notifies({ _ = model.state }, when: { model.refresh(1) }))
        await model.refresh(1).settled()
        #expect(await notifies({ _ = model.content }, when: { await model.refresh(2).settled() }))
        #expect(await notifies({ _ = model.isLoading }, when: { model.refresh(3) }))
    }

    @Test func lastErrorNotifiesWhenSetAndCleared() async {
        let model = DoublingModel()
        #expect(await notifies({ _ = model.lastError }, when: { await model.refresh(-1).settled() }))
        #expect(await notifies({ _ = model.lastError }, when: { await model.refresh(1).settled() }))
    }

    @Test func viewLifetimeNotifies() async {
        let model = DoublingModel()
        #expect(await notifies({ _ = model.viewLifetime }, when: { model.viewLifetime = .willAppear }))
    }

    @Test func unrelatedPropertiesDoNotNotify() async {
        let model = DoublingModel()
        #expect(!(await notifies({ _ = model.viewLifetime }, when: { await model.refresh(1).settled() })))
    }
}
