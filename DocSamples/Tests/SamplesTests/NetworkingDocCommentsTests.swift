import ContentLoadingNetworking
import Foundation
import Testing

@testable import Samples

/// The samples of the networking module's doc comments that need a bundle of fixtures, and the
/// results the others state.
struct NetworkingDocCommentsTests {
    // sample: Sources/Networking/URLStore.swift#1
    protocol SellerContactsURLStore: URLStore {
        var sellerContactsURL: URL { get }
    }

    struct LiveURLStore: SellerContactsURLStore {
        let baseURL: URL
        var sellerContactsURL: URL { baseURL.appending(path: "seller/contacts") }
    }

    struct TestURLStore: SellerContactsURLStore {
        var sellerContactsURL: URL { Bundle.module.url(forResource: "contacts", withExtension: "json")! }
    }
    // end sample

    @Test func theStoresGiveTheirURLs() {
        let live = LiveURLStore(baseURL: URL(string: "https://api.example.com/v1/")!)
        #expect(live.sellerContactsURL.absoluteString == "https://api.example.com/v1/seller/contacts")
        #expect(FileManager.default.fileExists(atPath: TestURLStore().sellerContactsURL.path))
    }

    @Test func aRedactedURLIsTheOneTheCommentShows() {
        #expect(NetworkingDocComments.redacted() == "https://api.example.com/v1?api_key=***&page=2#***")
    }

    @Test func theInMemoryTransportAnswers() async throws {
        let url = URL(string: "https://api.example.com/contacts")!
        let (client, _) = NetworkingDocComments.transports(url: url, json: Data(#"[{"id":1,"phone":"1"}]"#.utf8))
        let contacts = try await client.fetch([NetworkingDocComments.Contact].self, from: url)
        #expect(contacts == [NetworkingDocComments.Contact(id: 1, phone: "1")])
    }
}
