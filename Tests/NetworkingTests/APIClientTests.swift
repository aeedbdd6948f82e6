import ContentLoadingNetworking
import Foundation
import Testing

struct Item: Decodable, Equatable {
    let order: Int
    let phone: String?
}

private let url = URL(string: "https://api.example.com/items")!

private func client(status: Int = 200, body: String) -> APIClient {
    APIClient(transport: .inMemory([url: TransportResponse(url: url, statusCode: status, body: Data(body.utf8))]))
}

/// Runs `body`, requires it to throw an ``APIError`` and returns it.
func apiError(_ body: () async throws -> some Any, sourceLocation: SourceLocation = #_sourceLocation) async throws
    -> APIError
{
    do {
        _ = try await body()
    } catch let error as APIError {
        return error
    } catch {
        Issue.record("expected an APIError, got \(type(of: error)): \(error)", sourceLocation: sourceLocation)
        throw error
    }
    Issue.record("expected an APIError, but nothing was thrown", sourceLocation: sourceLocation)
    throw CancellationError()
}

@Suite struct APIClientTests {
    @Test func decodesA2xxBody() async throws {
        let items = try await client(body: #"[{"order": 2, "phone": "555"}, {"order": 1}]"#).fetch(
            [Item].self, from: url)
        #expect(items == [Item(order: 2, phone: "555"), Item(order: 1, phone: nil)])
    }

    @Test func non2xxStatusNamesTheStatusAndURL() async throws {
        let error = try await apiError { try await client(status: 503, body: "down").fetch([Item].self, from: url) }
        #expect(error == .httpStatus(url: url, status: 503, body: "down"))
        #expect(error.description == "HTTP 503 from https://api.example.com/items: down")
    }

    @Test func emptyBodyIsAnError() async throws {
        let error = try await apiError { try await client(body: "").fetch([Item].self, from: url) }
        #expect(error == .emptyBody(url: url))
    }

    @Test func malformedJSONNamesTheURL() async throws {
        let error = try await apiError { try await client(body: #"[{"order": 1,"#).fetch([Item].self, from: url) }
        guard case .malformedJSON(let failedURL, let reason) = error else {
            Issue.record("expected malformedJSON, got \(error)")
            return
        }
        #expect(failedURL == url)
        #expect(reason.contains("end of file"), "the reason says the JSON is cut short: \(reason)")
        #expect(error.description.contains("malformed JSON at https://api.example.com/items"))
    }

    @Test func invalidCharacterNamesLineAndColumn() async throws {
        let error = try await apiError { try await client(body: "[{\"order\": 1},\n x]").fetch([Item].self, from: url) }
        guard case .malformedJSON(_, let reason) = error else {
            Issue.record("expected malformedJSON, got \(error)")
            return
        }
        #expect(reason.contains("line 2, column 2"), "the reason names where the JSON breaks: \(reason)")
    }

    @Test func wrongTypeNamesTheJSONPathAndExpectedType() async throws {
        let body = #"[{"order": 1, "phone": "1"}, {"order": 2, "phone": 5550100}]"#
        let error = try await apiError { try await client(body: body).fetch([Item].self, from: url) }
        guard case .decoding(_, let path, let expected, _) = error else {
            Issue.record("expected a decoding error, got \(error)")
            return
        }
        #expect(path == "$[1].phone")
        #expect(expected == "String")
        #expect(error.description.contains("expected String at $[1].phone"))
    }

    @Test func missingKeyNamesTheKeyPath() async throws {
        let error = try await apiError { try await client(body: #"[{"phone": "1"}]"#).fetch([Item].self, from: url) }
        guard case .decoding(_, let path, _, _) = error else {
            Issue.record("expected a decoding error, got \(error)")
            return
        }
        #expect(path == "$[0].order")
    }

    @Test func wrongShapeAtTheRootNamesTheRoot() async throws {
        let error = try await apiError { try await client(body: #"{"items": []}"#).fetch([Item].self, from: url) }
        guard case .decoding(_, let path, _, _) = error else {
            Issue.record("expected a decoding error, got \(error)")
            return
        }
        #expect(path == "$")
    }

    @Test func unknownURLInMemoryIs404() async throws {
        let other = URL(string: "https://api.example.com/other")!
        let error = try await apiError { try await client(body: "[]").fetch([Item].self, from: other) }
        #expect(error == .httpStatus(url: other, status: 404, body: nil))
    }
}

/// Valid JSON of the wrong numeric type names its path and the expected type, whatever the
/// platform's decoder says.
@Suite struct NumericTypeErrorTests {
    @Test(arguments: [
        #"[{"order": 1.5}]"#, #"[{"order": 1e30}]"#, #"[{"order": 99999999999999999999}]"#, #"[{"order": true}]"#,
    ])
    func aNumberThatIsNotAnIntNamesItsPath(body: String) async throws {
        let error = try await apiError { try await client(body: body).fetch([Item].self, from: url) }
        #expect(error.description.contains("$[0].order"), "\(error)")
        #expect(error.description.contains("Int"), "\(error)")
        #expect(!error.description.contains("not valid JSON"), "\(error)")
    }
}
