import ContentLoading
import ContentLoadingNetworking
import ContentLoadingTesting
import Foundation
import Testing

/// The samples of "Testing your loaders" and of the ContentLoadingTesting landing page, as they
/// are written there, compiled and run: a sample that hangs or fails is a test failure.
struct TestingArticle {
    struct Contact: Decodable, Sendable, Equatable { let order: Int }

    protocol ContactsURLStore: URLStore { var contactsURL: URL { get } }

    struct ContactsAPIManager: Sendable {
        let urlStore: any ContactsURLStore & Sendable
        func contacts() async throws -> [Contact] {
            try await APIClient().fetch([Contact].self, from: urlStore.contactsURL)
        }
    }

    final class ContactsModel: ContentLoadingViewModel<Void, [Contact]> {
        let api: ContactsAPIManager
        init(api: ContactsAPIManager) {
            self.api = api
            super.init()
        }
        nonisolated override func load(_ input: Void) async throws -> [Contact] { try await api.contacts() }
    }

    // sample: Sources/ContentLoading/ContentLoading.docc/TestingYourLoaders.md#2
    struct FixtureURLStore: ContactsURLStore {
        var contactsURL: URL { Bundle.module.url(forResource: "contacts", withExtension: "json")! }
    }

    @MainActor @Test func aSellerWithContactsShowsThem() async {
        let model = ContactsModel(api: ContactsAPIManager(urlStore: FixtureURLStore()))
        #expect(await model.refresh().settled().value?.count == 3)
    }
    // end sample
}

@MainActor
@Suite(.timeLimit(.minutes(1)))
struct TestingArticleTests {
    typealias ContactsModel = TestingArticle.ContactsModel
    let api = TestingArticle.ContactsAPIManager(urlStore: TestingArticle.FixtureURLStore())

    @Test func everyStateInOrder() async throws {
        let model = ContactsModel(api: api)
        // sample: Sources/ContentLoading/ContentLoading.docc/TestingYourLoaders.md#3
        let recorder = StateRecorder(model)
        model.refresh()
        #expect(try await recorder.phases(count: 3) == [.unloaded, .loading, .success])
        // end sample
    }

    @Test func loadsThatFinishWhenTheTestSays() async throws {
        // sample: Sources/ContentLoading/ContentLoading.docc/TestingYourLoaders.md#4
        // NB: this loader's calls ignore cancellation, as work that cannot stop does.
        let loader = ControlledLoader<String, [Int]>(honorsCancellation: false)
        let model = ContentLoadingViewModel<String, [Int]>(load: loader.load)
        model.refresh("a")
        let a = try await loader.call(0)                     // "a" is loading
        let b = model.refresh("b")                           // latest wins: "a" is cancelled
        loader.complete(try await loader.call(1), returning: [2])
        #expect(try await b.settled(timeout: .seconds(5)) == .success([2]))
        loader.complete(a, returning: [1])                   // too late: never shown
        #expect(model.state == .success([2]))
        // end sample
    }

    @Test func timeByHand() async throws {
        // sample: Sources/ContentLoading/ContentLoading.docc/TestingYourLoaders.md#5
        /// A 503: worth trying again (only a transient `RetryableError` is retried).
        struct ServiceUnavailable: RetryableError { var isTransient: Bool { true } }

        let clock = ManualClock()
        let loader = ControlledLoader<Void, [Int]>()
        let model = ContentLoadingViewModel<Void, [Int]>(
            retry: RetryPolicy(attempts: 3, initialDelay: .seconds(1), jitter: .none, clock: clock), load: loader.load)
        let refresh = model.refresh()
        loader.complete(try await loader.call(0), throwing: ServiceUnavailable())
        try await clock.waitForSleepers(1)  // the first backoff waits
        #expect(model.state == .loading(previous: nil))
        clock.advance(by: .seconds(1))      // the second attempt starts
        loader.complete(try await loader.call(1), returning: [1])
        #expect(try await refresh.settled(timeout: .seconds(5)) == .success([1]))
        // end sample
    }

    @Test func nothingLeftBehind() async throws {
        // sample: Sources/ContentLoading/ContentLoading.docc/TestingYourLoaders.md#6
        var model: ContactsModel? = ContactsModel(api: api)
        model!.refresh()
        try await expectRelease(of: &model)
        // end sample
    }

    @Test func theLandingPagesSample() async throws {
        // sample: Sources/ContentLoadingTesting/ContentLoadingTesting.docc/ContentLoadingTesting.md#1
        let loader = ControlledLoader<String, [Int]>()
        let model = ContentLoadingViewModel<String, [Int]>(load: loader.load)
        model.refresh("a")
        loader.complete(try await loader.call(0), returning: [1, 2])
        // end sample
        #expect(loader.calls.map(\.input) == ["a"])
        #expect(loader.pendingCalls.isEmpty, "the sample completed its one call")
    }
}
