// The samples of "Talking to your server" (TalkingToYourServer.md).
import ContentLoading
import ContentLoadingNetworking
import Foundation

public struct TalkingToYourServer {
    // sample: Sources/Networking/ContentLoadingNetworking.docc/TalkingToYourServer.md#1
    struct Contact: Codable, Sendable { var id: Int; var phone: String }

    func rename(_ contact: Contact, at url: URL, etag: String, client: APIClient) async throws -> Contact {
        try await client.send(.put(url, body: contact, ifMatch: etag))
    }

    func remove(at url: URL, client: APIClient) async throws {
        try await client.send(.delete(url))   // 204 No Content: nothing to decode
    }
    // end sample

    // sample: Sources/Networking/ContentLoadingNetworking.docc/TalkingToYourServer.md#2
    func save(_ contact: Contact, at url: URL, etag: String, client: APIClient) async throws -> Contact {
        do {
            return try await client.send(.put(url, body: contact, ifMatch: etag))
        } catch let error as APIError {
            guard case .conflict(_, _, let body?, _) = error.failure else { throw error }
            return try client.decode(Contact.self, from: body, url: url)   // the server's version wins
        }
    }
    // end sample

    // sample: Sources/Networking/ContentLoadingNetworking.docc/TalkingToYourServer.md#3
    func create(_ draft: Contact, at url: URL, key: String, client: APIClient) async throws -> Contact {
        try await RetryPolicy(attempts: 3).run {
            try await client.send(.post(url, body: draft, idempotencyKey: key))   // the same key every attempt
        }
    }
    // end sample

    // sample: Sources/Networking/ContentLoadingNetworking.docc/TalkingToYourServer.md#4
    actor TokenStore {
        private(set) var current: String
        let renewal: URL
        let client: APIClient   // one without the adapter: the refresh needs no token

        init(current: String, renewal: URL, client: APIClient) {
            (self.current, self.renewal, self.client) = (current, renewal, client)
        }

        func renew() async throws {
            struct Issued: Decodable { let token: String }
            let issued: Issued = try await client.send(.post(renewal))
            current = issued.token
        }
    }

    struct BearerAuth: RequestAdapter {
        let tokens: TokenStore

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

    func authenticatedClient(tokens: TokenStore, transport: Transport = .standard()) -> APIClient {
        APIClient(transport: transport, adapter: BearerAuth(tokens: tokens))
    }
    // end sample

    // sample: Sources/Networking/ContentLoadingNetworking.docc/TalkingToYourServer.md#5
    func loggingClient(transport: Transport = .standard(), log: @escaping @Sendable (String) -> Void) -> APIClient {
        APIClient(transport: transport, onExchange: { report in log("\(report)") })
        // GET https://api.example.com/contacts → 200, 0 bytes sent, 5120 received, 41 ms, attempt 1
    }
    // end sample
}

extension TalkingToYourServer {
    /// Runs the conflict sample against `transport`; the phone of the contact it returns.
    public static func savePhone(_ phone: String, at url: URL, etag: String, transport: Transport) async throws
        -> String
    {
        try await TalkingToYourServer().save(
            Contact(id: 7, phone: phone), at: url, etag: etag, client: APIClient(transport: transport)
        ).phone
    }

    /// Runs the idempotent create sample against `transport`; the id of the contact it returns.
    public static func createContact(at url: URL, key: String, transport: Transport) async throws -> Int {
        try await TalkingToYourServer().create(
            Contact(id: 0, phone: "555"), at: url, key: key, client: APIClient(transport: transport)
        ).id
    }
}

extension TalkingToYourServer {
    /// Runs the credentials sample: loads `url` through `transport` with the token "expired",
    /// renewed from `renewal`; the body and the token held at the end.
    public static func loadWithRenewal(_ url: URL, renewal: URL, transport: Transport) async throws
        -> (body: String, token: String)
    {
        let tokens = TokenStore(current: "expired", renewal: renewal, client: APIClient(transport: transport))
        let body = try await TalkingToYourServer().authenticatedClient(tokens: tokens, transport: transport)
            .data(from: url)
        return (String(decoding: body, as: UTF8.self), await tokens.current)
    }

    /// Runs the logging sample: loads `url` through `transport`; the lines it logged.
    public static func loggedLines(loading url: URL, transport: Transport) async throws -> [String] {
        // NB: the log is called from any thread; a stream's continuation is Sendable.
        let (lines, log) = AsyncStream<String>.makeStream()
        _ = try await TalkingToYourServer().loggingClient(transport: transport) { log.yield($0) }.data(from: url)
        log.finish()
        return await lines.reduce(into: []) { $0.append($1) }
    }
}
