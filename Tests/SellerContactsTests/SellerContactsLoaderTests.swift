import ContentLoading
import ContentLoadingNetworking
import ContentLoadingTesting
import Foundation
import KitTestSupport
import SellerContacts
import Testing

@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct SellerContactsLoaderTests {
    @Test func sortsByOrder() async throws {
        let model = try loader(fixture: "contacts")
        let recorder = StateRecorder(model)
        await model.refresh().settled()
        #expect(try await recorder.phases(count: 3) == [.unloaded, .loading, .success])
        #expect(model.content?.map(\.order) == [1, 2, 3])
    }

    @Test func emptyListIsEmpty() async throws {
        #expect(try await loader(fixture: "empty").refresh().settled() == .empty)
    }

    @Test func malformedJSONIsAnErrorNamingTheFile() async throws {
        let model = try loader(fixture: "malformed")
        let state = await model.refresh().settled()
        let error = try #require(state.error as? APIError)
        guard case .malformedJSON(let url, _) = error else {
            Issue.record("expected malformedJSON, got \(error)")
            return
        }
        #expect(url == (try fixtureURL("malformed")))
    }

    @Test func largeListLoadsSorted() async throws {
        let count = 5_000
        let contacts = (0..<count).reversed().map {
            SellerContacts(address: "Street \($0)", order: $0, phone: "+1 555 \($0)")
        }
        let file = try makeTemporaryDirectory().appendingPathComponent("large.json")
        try JSONEncoder().encode(contacts).write(to: file)
        let model = SellerContactsLoader(
            apiManager: SellerContactsAPIManager(urlStore: FixedSellerContactsURLStore(file)))
        await model.refresh().settled()
        #expect(model.content?.count == count)
        #expect(model.content?.map(\.order) == Array(0..<count))
    }

    @Test func errorAfterSuccessKeepsTheContacts() async throws {
        let directory = try makeTemporaryDirectory()
        let file = directory.appendingPathComponent("contacts.json")
        try FileManager.default.copyItem(at: fixtureURL("contacts"), to: file)
        let model = SellerContactsLoader(
            apiManager: SellerContactsAPIManager(urlStore: FixedSellerContactsURLStore(file)))
        await model.refresh().settled()
        try FileManager.default.removeItem(at: file)
        let state = await model.refresh().settled()
        #expect(state.error as? APIError == .fileNotFound(url: file, path: file.path))
        #expect(model.content?.count == 3, "the contacts already shown are kept")
    }

    @Test func sortIsStableForEqualOrders() {
        let contacts = [
            SellerContacts(address: "b", order: 1), SellerContacts(address: "a", order: 0),
            SellerContacts(address: "c", order: 1),
        ]
        #expect(contacts.sortedByOrder().map(\.address) == ["a", "b", "c"])
    }
}
