import ContentLoading
import ContentLoadingNetworking
import ContentLoadingSupport
import Foundation
import KitTestSupport
import Testing

/// `APIClient`'s `RequestAdapter`: credentials on every request, one refresh for the requests a
/// server refuses at once, against the fixture server's `/protected/` and `/token` routes (a
/// real process on 127.0.0.1, whose first token is "t0").
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct AuthenticationTests {
    let fixture: ItemsFixture

    init() throws { fixture = try ItemsFixture("auth") }

    /// Holds the current token and renews it from the server's `/token` route.
    actor Tokens {
        private(set) var current: String
        private(set) var refreshes = 0
        let renewal: URL

        init(_ current: String, renewal: URL) {
            self.current = current
            self.renewal = renewal
        }

        func renew() async throws {
            struct Issued: Decodable { let token: String }
            refreshes += 1
            let issued: Issued = try await APIClient(transport: .urlSession()).send(.post(renewal))
            current = issued.token
        }
    }

    /// `Authorization: Bearer <token>`, renewed from the server.
    struct BearerAuth: RequestAdapter {
        let tokens: Tokens

        func adapt(_ request: TransportRequest) async throws -> TransportRequest {
            var request = request
            request.headers["Authorization"] = "Bearer \(await tokens.current)"
            return request
        }

        func refreshCredentials() async throws -> Bool {
            try await tokens.renew()
            return true
        }
    }

    func client(token: String, renewal: String = "token") -> (APIClient, Tokens) {
        let tokens = Tokens(token, renewal: fixture.server.url(renewal))
        return (APIClient(transport: .urlSession(), adapter: BearerAuth(tokens: tokens)), tokens)
    }

    func issuedTokens() async throws -> Int {
        try await APIClient(transport: .urlSession()).fetch(Int.self, from: fixture.server.url("token-refreshes"))
    }

    struct Item: Decodable, Equatable { let order: Int }

    @Test func everyRequestCarriesTheAdaptersCredentials() async throws {
        let (client, _) = client(token: "t0")
        let items = try await client.fetch([Item].self, from: fixture.server.url("protected/items.json"))
        #expect(items == [Item(order: 3)])
        struct Echo: Decodable { let headers: [String: String] }
        let echo: Echo = try await client.send(.post(fixture.server.url("protected/echo"), body: ["a": 1]))
        #expect(echo.headers["authorization"] == "Bearer t0")
        #expect(try await issuedTokens() == 0, "nothing was refused, so nothing was renewed")
    }

    @Test func fiftyRequestsRefusedAtOnceShareOneRefreshAndAllSucceed() async throws {
        // NB: the server issues the new token only once it has refused all 50, so each of them
        // got a 401 with the old token while the one refresh ran.
        let (client, tokens) = client(token: "expired", renewal: "token?after_refusals=50")
        let url = fixture.server.url("protected/items.json")
        let loaded = try await withThrowingTaskGroup(of: [Item].self) { group in
            for _ in 0..<50 { group.addTask { try await client.fetch([Item].self, from: url) } }
            return try await group.reduce(into: 0) { count, items in count += items == [Item(order: 3)] ? 1 : 0 }
        }
        #expect(loaded == 50)
        #expect(await tokens.refreshes == 1)
        #expect(try await issuedTokens() == 1)
        #expect(await tokens.current == "t1")
    }

    @Test func aSecondRefusalIsTheRequestsErrorNamingTheURLButNotTheToken() async throws {
        struct StaleAuth: RequestAdapter {
            func adapt(_ request: TransportRequest) async throws -> TransportRequest {
                var request = request
                request.headers["Authorization"] = "Bearer s3cr3t-stale"
                return request
            }
            func refreshCredentials() async throws -> Bool { true }  // claims to, but never does
        }
        let client = APIClient(transport: .urlSession(), adapter: StaleAuth())
        let url = fixture.server.url("protected/items.json")
        let error = try await #require(throws: APIError.self) { try await client.data(from: url) }
        guard case .httpStatus(url, 401, _, _) = error else {
            Issue.record("expected HTTP 401 from \(url), got \(error)")
            return
        }
        #expect(error.description.hasPrefix("HTTP 401 from \(url.absoluteString)"))
        #expect(!error.description.contains("s3cr3t"))
        #expect(try await fixture.server.requestCount() == 2, "sent once, and once more after the refresh")
    }

    @Test func anAdapterThatCannotRenewLeavesTheRefusalStanding() async throws {
        struct APIKey: RequestAdapter {
            var secretHeaderNames: Set<String> { ["X-API-Key-Of-Mine"] }
            func adapt(_ request: TransportRequest) async throws -> TransportRequest {
                var request = request
                request.headers["X-API-Key-Of-Mine"] = "k-123"
                return request
            }
        }
        let client = APIClient(transport: .urlSession(), adapter: APIKey())
        let url = fixture.server.url("protected/items.json")
        let error = try await #require(throws: APIError.self) { try await client.data(from: url) }
        #expect(
            error.failure
                == .httpStatus(url: url, status: 401, body: #"{"error": "token missing, unknown or expired"}"#))
        #expect(try await fixture.server.requestCount() == 1, "no refresh, no second attempt")
    }

    @Test func aRefreshThatFailsFailsEveryWaitingRequestWithItsError() async throws {
        let (client, tokens) = client(token: "expired", renewal: "token?after_refusals=10&fail=503")
        let url = fixture.server.url("protected/items.json")
        let failures = await withTaskGroup(of: (any Error)?.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    do {
                        _ = try await client.data(from: url)
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            return await group.reduce(into: [String]()) { failures, error in
                failures.append(error.map { String(describing: $0) } ?? "succeeded")
            }
        }
        let renewal = fixture.server.url("token?after_refusals=10&fail=503")
        let expected = APIError.request(
            method: .post, isRepeatable: false,
            failure: .httpStatus(url: renewal, status: 503, body: #"{"error": "status 503"}"#))
        #expect(failures == Array(repeating: expected.description, count: 10))
        #expect(await tokens.refreshes == 1)
        #expect(await tokens.current == "expired")
    }

    @Test func theAdaptersSecretHeadersAreNeverPrinted() async throws {
        struct SessionAuth: RequestAdapter {
            var secretHeaderNames: Set<String> { ["X-Session"] }
            func adapt(_ request: TransportRequest) async throws -> TransportRequest {
                var request = request
                request.headers["X-Session"] = "sess-9f2"
                request.headers["Authorization"] = "Bearer t0"
                return request
            }
        }
        let printed = Locked<[String]>([])
        let logging = Transport { request in
            printed.withLock { $0.append(String(describing: request)) }
            return try await Transport.urlSession().send(request)
        }
        let client = APIClient(transport: logging, adapter: SessionAuth())
        _ = try await client.data(from: fixture.server.url("protected/items.json"))
        let line = try #require(printed.withLock { $0.first })
        #expect(line.contains("X-Session: <redacted>"))
        #expect(line.contains("Authorization: <redacted>"))
        #expect(!line.contains("sess-9f2") && !line.contains("Bearer"))
    }
}
