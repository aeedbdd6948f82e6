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

/// What the networking doc comments say the client prints.
struct NetworkingDocCommentsMessagesTests {
    typealias Contact = NetworkingDocComments.Contact

    @Test func anHTTPErrorNamesItsStatusAndURL() async throws {
        let url = URL(string: "http://127.0.0.1:8080/contacts")!
        let client = APIClient(transport: .inMemory([url: TransportResponse(url: url, statusCode: 404, body: Data())]))
        let error = try await #require(throws: APIError.self) { try await client.fetch([Contact].self, from: url) }
        #expect("\(error)" == "HTTP 404 from http://127.0.0.1:8080/contacts")
    }

    @Test func aValueOfTheWrongTypeNamesItsPath() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("contacts-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let phones = [#""1""#, #""2""#, #""3""#, "4"]
        try Data(("[" + phones.map { #"{"id":1,"phone":\#($0)}"# }.joined(separator: ",") + "]").utf8).write(to: file)
        let error = try await #require(throws: APIError.self) { try await APIClient().fetch([Contact].self, from: file) }
        #expect("\(error)".hasPrefix("unexpected JSON at \(file.absoluteString): expected String at $[3].phone: "))
    }

    @Test func anExchangeReportReadsAsTheCommentShows() async throws {
        let url = URL(string: "https://api.example.com/contacts/7")!
        let body = Data(#"{"id":7,"phone":"+1 555 0100"}"#.utf8)
        let reports = ReportsBox()
        let client = APIClient(
            transport: Transport { request in TransportResponse(url: request.url, statusCode: 200, body: body) },
            onExchange: { reports.append("\($0)") })
        let _: Contact = try await client.send(.put(url, body: Contact(id: 7, phone: "+1 555 0100")))
        let report = try #require(reports.all.first)
        #expect(report.hasPrefix("PUT https://api.example.com/contacts/7 → 200, "), "\(report)")
        #expect(report.contains(" bytes sent, \(body.count) received, "), "\(report)")
        #expect(report.hasSuffix(" ms, attempt 1"), "\(report)")
    }

    final class ReportsBox: @unchecked Sendable {
        private let lock = NSLock()
        private var reports: [String] = []
        func append(_ report: String) { lock.withLock { reports.append(report) } }
        var all: [String] { lock.withLock { reports } }
    }
}
