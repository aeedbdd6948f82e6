import ContentLoading
import ContentLoadingNetworking
import Foundation
import Samples
import Testing

/// The README's samples, run: the opening one behaves as its comments say, and the URL-store
/// one fails as it says on its malformed fixture.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct ReadmeTests {
    @Test func theOpeningSampleBehavesAsItsCommentsSay() async {
        let model = Readme.greetingModel()
        #expect(await model.refresh("Ada").settled().description == #"success(["Hello, Ada!"])"#)
        #expect(await model.refresh("").settled().description == #"error(noName, previous: ["Hello, Ada!"])"#)
        #expect(model.content == ["Hello, Ada!"])
    }

    struct SellerContacts: Decodable, Sendable {
        let address: String
        let order: Int
        let phone: String
    }

    // sample: README.md#2
    protocol SellerContactsURLStore: URLStore {
        var sellerContactsURL: URL { get }
    }

    struct LiveSellerContactsURLStore: SellerContactsURLStore {
        let baseURL: URL                                   // https://api.example.com/v1/
        var sellerContactsURL: URL { baseURL.appendingPathComponent("seller/contacts") }
    }

    struct TestSellerContactsURLStore: SellerContactsURLStore {
        let sellerContactsURL: URL
        init(fixture name: String) throws {               // fails loudly when the fixture is missing
            sellerContactsURL = try #require(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures"))
        }
    }

    struct SellerContactsAPIManager {
        let urlStore: any SellerContactsURLStore
        var client = APIClient()                           // or APIClient(transport: .inMemory([...]))
        func sellerContacts() async throws -> [SellerContacts] {
            try await client.fetch([SellerContacts].self, from: urlStore.sellerContactsURL)
        }
    }
    // end sample

    @Test func theURLStoreSampleFailsAsItSaysOnAMalformedFixture() async throws {
        // sample: README.md#3
        let api = SellerContactsAPIManager(urlStore: try TestSellerContactsURLStore(fixture: "wrong-types"))
        await #expect(throws: APIError.self) { try await api.sellerContacts() }
        // unexpected JSON at file:///…/wrong-types.json: expected String at $[1].phone: …
        // end sample
        let error = await #expect(throws: APIError.self) { try await api.sellerContacts() }
        #expect(error.map(String.init(describing:))?.contains("wrong-types.json") == true)
        #expect(error.map(String.init(describing:))?.contains("$[1].phone") == true)
    }
}

/// The networking landing page's sample, run on a file.
@Suite struct NetworkingLandingTests {
    @Test func theSampleFetchesAndDecodes() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("landing-\(UUID()).json")
        try Data(#"[{"order": 2}, {"order": 1}]"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try await NetworkingLanding.orders(at: file) == [2, 1])
    }
}
