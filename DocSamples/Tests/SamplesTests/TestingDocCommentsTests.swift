import ContentLoading
import ContentLoadingTesting
import Foundation
import Testing

/// The samples of the testing tools' doc comments (and of the ContentLoading ones that are
/// test code), compiled, and run where they make their point.
@MainActor
struct TestingDocComments {
    struct Contact: Sendable, Equatable, Identifiable {
        let id: Int
    }

    struct ContactsAPI: Sendable {
        func contacts() async throws -> [Contact] { [Contact(id: 1)] }
    }

    final class ContactsModel: ContentLoadingViewModel<Void, [Contact]> {
        init(api: ContactsAPI) {
            super.init { _ in try await api.contacts() }
        }

        init(lifetimeTrigger: LifetimeTrigger, clock: ManualClock) {
            super.init(lifetimeTrigger: lifetimeTrigger, clock: clock) { _ in [Contact(id: 1)] }
        }
    }

    enum SyncFailure: Error, Equatable {
        case offline
    }

    @Test func eventsCompare() async throws {
        let stored = [Contact(id: 1)]
        let (stream, continuation) = AsyncStream.makeStream(of: ContentEvent<[Contact]>.self)
        let events = StreamRecorder(stream)
        continuation.yield(.value(stored))
        continuation.yield(.error(SyncFailure.offline))
        // sample: Sources/ContentLoading/Events/ContentEvent+Equatable.swift#1
        #expect(try await events.values(count: 2) == [.value(stored), .error(SyncFailure.offline)])
        // end sample
    }

    @Test func phases() async throws {
        let model = ContactsModel(api: ContactsAPI())
        let recorder = StateRecorder(model)
        await model.refresh().settled()
        // sample: Sources/ContentLoading/State/ContentLoadingPhase.swift#1
        #expect(recorder.phases == [.unloaded, .loading, .success])
        // end sample
    }

    @Test func controlledLoader() async throws {
        // sample: Sources/ContentLoadingTesting/ControlledLoader.swift#1
        let loader = ControlledLoader<String, [Int]>()
        let model = ContentLoadingViewModel<String, [Int]>(load: loader.load)
        model.refresh("a")
        let call = try await loader.call(0)          // waits until the load is running
        loader.complete(call, returning: [1, 2])
        // end sample
        #expect(call.input == "a")
        #expect(loader.pendingCalls.isEmpty, "the call was completed")
    }

    @Test func release() async throws {
        let api = ContactsAPI()
        // sample: Sources/ContentLoadingTesting/ExpectRelease.swift#1
        var model: ContactsModel? = ContactsModel(api: api)
        model!.refresh()
        try await expectRelease(of: &model)   // fails if a RefreshHandle, a Task or a stream holds it
        // end sample
    }

    @Test func manualClock() async throws {
        // sample: Sources/ContentLoadingTesting/ManualClock.swift#1
        let clock = ManualClock()
        let model = ContactsModel(lifetimeTrigger: .init(refreshOn: .willAppear, unlessYoungerThan: .seconds(60)), clock: clock)
        clock.advance(by: .seconds(61))
        // end sample
        #expect(model.state == .unloaded)
    }

    struct Unreachable: RetryableError {
        var isTransient: Bool { true }
    }

    /// Fails once, then answers.
    actor FlakyAPI {
        private var calls = 0
        func contacts() throws -> [Contact] {
            calls += 1
            if calls == 1 { throw Unreachable() }
            return [Contact(id: 1)]
        }
    }

    @Test func waitingForSleepers() async throws {
        let clock = ManualClock()
        let retry = RetryPolicy(attempts: 2, initialDelay: .seconds(1), jitter: .none, clock: clock)
        let api = FlakyAPI()
        // sample: Sources/ContentLoadingTesting/ManualClock.swift#2
        let load = Task { try await retry.run { try await api.contacts() } }
        try await clock.waitForSleepers(1)   // the first attempt failed; its backoff waits
        clock.advance(by: .seconds(1))
        // end sample
        #expect(try await load.value == [Contact(id: 1)])
    }

    @Test func settledWithATimeLimit() async throws {
        let model = ContentLoadingViewModel<String, [Int]> { _ in [1, 2] }
        // sample: Sources/ContentLoadingTesting/RefreshHandle+Timeout.swift#1
        let state = try await model.refresh("a").settled(timeout: .seconds(5))
        #expect(state == .success([1, 2]))
        // end sample
    }

    @Test func stateRecorder() async throws {
        let model = ContactsModel(api: ContactsAPI())
        // sample: Sources/ContentLoadingTesting/StateRecorder.swift#1
        let recorder = StateRecorder(model)           // subscribes now; first state is the current one
        model.refresh()
        #expect(try await recorder.phases(count: 3) == [.unloaded, .loading, .success])
        // end sample
    }

    @Test func streamRecorder() async throws {
        let model = PagingListViewModel<Void, Contact, Int> { _, cursor in
            Page(items: [Contact(id: cursor ?? 0)], nextCursor: (cursor ?? 0) + 1)
        }
        await model.refresh().settled()
        // sample: Sources/ContentLoadingTesting/StreamRecorder.swift#1
        let pages = StreamRecorder(model.nextPageStateUpdates)
        model.loadNextPage()
        #expect(try await pages.values(count: 3) == [.idle, .loading, .idle])
        // end sample
    }

    /// Compiled, not run: it shows a wait that runs out (60 seconds).
    static func waitTimeout(loader: ControlledLoader<String, [Int]>) async throws -> ControlledLoader<String, [Int]>.Call {
        // sample: Sources/ContentLoadingTesting/WaitTimeout.swift#1
        let call = try await loader.call(1)
        // throws WaitTimeout: waited 60.0 seconds for call 1 of ControlledLoader<String, Array<Int>>; 1 call made: 0 "a"
        // end sample
        return call
    }

    @Test func aWaitThatRunsOutSaysWhatItWaitedFor() async throws {
        let loader = ControlledLoader<String, [Int]>()
        let model = ContentLoadingViewModel<String, [Int]>(load: loader.load)
        model.refresh("a")
        _ = try await loader.call(0)
        let error = try await #require(throws: WaitTimeout.self) { try await loader.call(1, timeout: .milliseconds(50)) }
        #expect("\(error)" == "waited 0.05 seconds for call 1 of ControlledLoader<String, Array<Int>>; 1 call made: 0 \"a\"")
    }
}
