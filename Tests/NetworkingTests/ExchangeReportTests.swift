import ContentLoading
import ContentLoadingNetworking
import ContentLoadingSupport
import Foundation
import KitTestSupport
import Testing

/// `APIClient.onExchange`: a report of every exchange with the transport, against the fixture
/// server (a real process on 127.0.0.1).
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct ExchangeReportTests {
    let fixture: ItemsFixture
    let reports = Locked<[ExchangeReport]>([])

    init() throws { fixture = try ItemsFixture("exchange") }

    func client(adapter: (any RequestAdapter)? = nil) -> APIClient {
        APIClient(
            transport: .urlSession(), adapter: adapter,
            onExchange: { [reports] report in reports.withLock { $0.append(report) } })
    }

    var reported: [ExchangeReport] { reports.withLock { $0 } }

    struct Record: Codable, Equatable, Sendable { let phone: String }

    @Test func aWriteAndARevalidationAreReportedWithSizesStatusesAndARedactedURL() async throws {
        let client = client()
        let url = fixture.server.url("records/contacts/7?api_key=k3y")
        let body = Record(phone: "+1 555 0100")
        let sent = try JSONEncoder().encode(body)
        let put = try await client.send(.put(url, body: body))
        _ = try await client.fetch(Record.self, from: url, ifChangedSince: put.validators)

        let shownURL = fixture.server.url("records/contacts/7?api_key=***").absoluteString
        try #require(reported.count == 2)
        #expect(reported.map(\.method) == [.put, .get])
        #expect(reported.map(\.url) == [shownURL, shownURL])
        #expect(reported.map(\.statusCode) == [201, 304])
        #expect(reported.map(\.bytesSent) == [sent.count, 0])
        #expect(reported.map(\.bytesReceived) == [put.body.count, 0])
        #expect(reported.map(\.isNotModified) == [false, true])
        #expect(reported.map(\.attempt) == [1, 1])
        #expect(reported.allSatisfy { $0.failure == nil && !$0.isAfterCredentialRefresh && $0.duration > .zero })
        #expect(!reported.contains { String(describing: $0).contains("k3y") })
        #expect(
            String(describing: reported[0]).hasPrefix(
                "PUT \(shownURL) → 201, \(sent.count) bytes sent, \(put.body.count) received, "))
    }

    @Test func eachAttemptOfARetriedLoadIsReportedWithItsNumber() async throws {
        let client = client()
        let url = fixture.server.url("flaky/report/2/503/items.json")
        let policy = RetryPolicy(attempts: 3, initialDelay: .milliseconds(1), jitter: .none)
        _ = try await policy.run { try await client.data(from: url) }
        #expect(reported.map(\.attempt) == [1, 2, 3])
        #expect(reported.map(\.statusCode) == [503, 503, 200])
    }

    @Test func aResendAfterACredentialRefreshIsReportedAsSuch() async throws {
        struct Renewing: RequestAdapter {
            let token = Locked("expired")
            let renewal: URL
            func adapt(_ request: TransportRequest) async throws -> TransportRequest {
                var request = request
                request.headers["Authorization"] = "Bearer " + token.withLock { $0 }
                return request
            }
            func refreshCredentials() async throws -> Bool {
                struct Issued: Decodable { let token: String }
                let issued: Issued = try await APIClient(transport: .urlSession()).send(.post(renewal))
                token.withLock { $0 = issued.token }
                return true
            }
        }
        let client = client(adapter: Renewing(renewal: fixture.server.url("token")))
        _ = try await client.data(from: fixture.server.url("protected/items.json"))
        #expect(reported.map(\.statusCode) == [401, 200])
        #expect(reported.map(\.isAfterCredentialRefresh) == [false, true])
    }

    @Test func anExchangeWithNoAnswerIsReportedWithWhyNot() async throws {
        let client = client()
        let url = fixture.server.url("status/200")
        fixture.server.stop()
        await #expect(throws: APIError.self) { try await client.data(from: url) }
        let report = try #require(reported.first)
        #expect(reported.count == 1)
        #expect(report.statusCode == nil)
        #expect(report.failure?.hasPrefix("could not load \(url.absoluteString)") == true)
    }
}
