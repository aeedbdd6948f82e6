import ContentLoadingNetworking
import Foundation
import KitTestSupport
import SellerContacts
import Testing

@Suite struct SellerContactsAPIManagerTests {
    @Test func decodesTheNormalFixtureInSourceOrder() async throws {
        let contacts = try await SellerContactsAPIManager(urlStore: TestSellerContactsURLStore(fixture: "contacts"))
            .sellerContacts()
        #expect(contacts.map(\.order) == [2, 1, 3])
        #expect(contacts[2] == SellerContacts(address: "3 Third Road", order: 3, phone: nil))
    }

    @Test func wrongTypesNameTheJSONPath() async throws {
        let store = try TestSellerContactsURLStore(fixture: "wrong-types")
        do {
            _ = try await SellerContactsAPIManager(urlStore: store).sellerContacts()
            Issue.record("wrong types decoded")
        } catch let error as APIError {
            #expect(error.description.contains("$[1].phone"))
            #expect(error.description.contains(store.sellerContactsURL.absoluteString))
        }
    }

    @Test func repeatedOrdersAreAnErrorNamingBothPositions() async throws {
        let store = try TestSellerContactsURLStore(fixture: "duplicate-orders")
        let error = await #expect(throws: APIError.self) {
            try await SellerContactsAPIManager(urlStore: store).sellerContacts()
        }
        #expect(error?.description.contains("expected an order no other contact has at $[2].order") == true)
        #expect(error?.description.contains("order 2 is also at $[1]") == true)
        #expect(error?.description.contains(store.sellerContactsURL.absoluteString) == true)
    }

    @Test func bundledStorePointsAtShippedJSON() async throws {
        let store = BundledSellerContactsURLStore()
        #expect(store.sellerContactsURL.isFileURL)
        let contacts = try await SellerContactsAPIManager(urlStore: store).sellerContacts()
        #expect(!contacts.isEmpty)
    }

    @Test func liveStoreBuildsTheContactsURLFromItsBase() {
        let store = LiveSellerContactsURLStore(baseURL: URL(string: "https://api.example.com/v1/")!)
        #expect(store.sellerContactsURL.absoluteString == "https://api.example.com/v1/seller/contacts")
    }

    @Test(.timeLimit(.minutes(HangLimit.minutes)))
    func liveStoreAgainstALocalServer() async throws {
        let root = try makeTemporaryDirectory()
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("seller"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: fixtureURL("contacts"), to: root.appendingPathComponent("seller/contacts"))
        let server = try LocalHTTPServer.start(serving: root)
        defer { server.stop() }
        let store = LiveSellerContactsURLStore(baseURL: server.url("fixtures/"))
        let contacts = try await SellerContactsAPIManager(urlStore: store).sellerContacts()
        #expect(contacts.count == 3)
    }

    @Test func identityIsTheOrder() {
        #expect(SellerContacts(address: "a", order: 4, phone: "b").id == 4)
    }
}
