import ContentLoading
import ContentLoadingNetworking
import Foundation
import KitTestSupport
import Testing

/// ETag / Last-Modified round trips against the fixture server, a real process on 127.0.0.1.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct ConditionalRequestTests {
    let root: URL
    let server: LocalHTTPServer

    init() throws {
        let fixture = try ItemsFixture("etag")
        (root, server) = (fixture.root, fixture.server)
    }

    @Test func anUnchangedResourceIsNotModifiedAndAChangedOneComesWithNewValidators() async throws {
        let url = server.url("fixtures/items.json")
        let client = APIClient()
        let first = try await client.fetch([Item].self, from: url, ifChangedSince: .none)
        #expect(first.value == [Item(order: 3, phone: "555")])
        let validators = first.validators
        #expect(validators.entityTag?.hasPrefix("\"") == true, "the server's ETag: \(validators)")
        #expect(validators.lastModified != nil)

        let again = try await client.fetch([Item].self, from: url, ifChangedSince: validators)
        #expect(again == .notModified(validators), "304: nothing decoded")

        try Data(#"[{"order": 4}]"#.utf8).write(to: root.appendingPathComponent("items.json"))
        let changed = try await client.fetch([Item].self, from: url, ifChangedSince: validators)
        #expect(changed.value == [Item(order: 4, phone: nil)])
        #expect(changed.validators.entityTag != validators.entityTag)
    }

    /// The transport follows redirects itself: a revalidation goes on with its validators, and
    /// the resource's server answers 304.
    @Test func aRevalidationKeepsItsValidatorsThroughARedirect() async throws {
        let url = server.url("redirect?status=307&to=%2Ffixtures%2Fitems.json")
        let client = APIClient()
        let first = try await client.fetch([Item].self, from: url, ifChangedSince: .none)
        #expect(first.value == [Item(order: 3, phone: "555")])
        let again = try await client.fetch([Item].self, from: url, ifChangedSince: first.validators)
        #expect(again == .notModified(first.validators))
    }

    @Test func aNotModifiedIsNeitherAnErrorNorAnEmptyBodyOnlyWhenValidatorsWereSent() async throws {
        let url = server.url("fixtures/items.json")
        let client = APIClient()
        let validators = try await client.fetch([Item].self, from: url, ifChangedSince: .none).validators
        // NB: an unconditional fetch never asks for a 304, so it always gets the body.
        #expect(try await client.fetch([Item].self, from: url) == [Item(order: 3, phone: "555")])
        #expect(try await client.fetch([Item].self, from: url, ifChangedSince: validators).value == nil)
    }

    @Test func filesAndMemoryHaveNoValidatorsSoEveryFetchIsFull() async throws {
        let file = root.appendingPathComponent("items.json")
        let client = APIClient()
        let stale = Validators(entityTag: "\"anything\"", lastModified: "Sun, 06 Nov 1994 08:49:37 GMT")
        let fromFile = try await client.fetch([Item].self, from: file, ifChangedSince: stale)
        #expect(fromFile == .modified([Item(order: 3, phone: "555")], .none))
        let memoryURL = URL(string: "https://example.com/items")!
        let body = Data(#"[{"order": 1}]"#.utf8)
        let memory = APIClient(
            transport: .inMemory([memoryURL: TransportResponse(url: memoryURL, statusCode: 200, body: body)]))
        #expect(try await memory.fetch([Item].self, from: memoryURL, ifChangedSince: stale).value?.count == 1)
    }
}
