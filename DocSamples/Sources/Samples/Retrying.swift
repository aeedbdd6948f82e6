// The first sample of "Retrying failed loads" (Retrying.md); the second is in the tests.
import ContentLoading

public enum Retrying {
    public struct Contact: Sendable {}
    public struct ContactsAPI: Sendable {
        public func contacts() async throws -> [Contact] { [] }
    }

    @MainActor static func sample(api: ContactsAPI) {
        // sample: Sources/ContentLoading/ContentLoading.docc/Retrying.md#1
        let retry = RetryPolicy(attempts: 4, initialDelay: .milliseconds(500), maximumDelay: .seconds(10))
        let model = ContentLoadingViewModel<Void, [Contact]>(retry: retry) { try await api.contacts() }
        // end sample
        _ = model
    }
}
