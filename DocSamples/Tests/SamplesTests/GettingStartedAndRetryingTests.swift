import ContentLoading
import ContentLoadingNetworking
import ContentLoadingTesting
import Foundation
import Samples
import Testing

/// The samples of "Getting started" and "Retrying failed loads" that a test runs.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct GettingStartedAndRetryingTests {
    typealias Contact = GettingStarted.Contact
    let alice = Contact(id: 1, order: 1)

    @Test func gettingStartedsTestRuns() async throws {
        // sample: Sources/ContentLoading/ContentLoading.docc/GettingStarted.md#3
        let loader = ControlledLoader<Void, [Contact]>()
        let model = ContentLoadingViewModel<Void, [Contact]>(load: loader.load)
        let recorder = StateRecorder(model)
        model.refresh()
        try await loader.complete(loader.call(0), returning: [alice])
        #expect(try await recorder.phases(count: 3) == [.unloaded, .loading, .success])
        // end sample
    }

    @Test func gettingStartedsModelSortsByOrder() async throws {
        let model = GettingStarted.contactsModel(
            api: GettingStarted.ContactsAPI { [Contact(id: 2, order: 2), Contact(id: 1, order: 1)] })
        #expect(try await model.refresh().completed(timeout: .seconds(20)).content?.map(\.id) == [1, 2])
    }

    @Test func retryingsTestRuns() async throws {
        let loader = ControlledLoader<Void, [Contact]>()
        let url = URL(string: "https://api.example.com/contacts")!
        // sample: Sources/ContentLoading/ContentLoading.docc/Retrying.md#2
        let clock = ManualClock()
        let model = ContentLoadingViewModel<Void, [Contact]>(
            retry: RetryPolicy(attempts: 3, jitter: .none, clock: clock), load: loader.load)
        model.refresh()
        loader.complete(try await loader.call(0), throwing: APIError.httpStatus(url: url, status: 503, body: nil))
        try await clock.waitForSleepers(1)   // the first backoff waits
        clock.advance(by: .seconds(1))       // the second attempt starts
        // end sample
        let recorder = StateRecorder(model)
        loader.complete(try await loader.call(1), returning: [alice])  // the second attempt is the one
        #expect(try await recorder.states(count: 2) == [.loading(previous: nil), .success([alice])])
    }
}
