// The samples of the ContentLoadingNetworking module's doc comments.
import ContentLoading
import ContentLoadingNetworking
import Foundation

/// What the doc comments' samples name and do not declare.
enum NetworkingDocComments {
    struct Contact: Codable, Sendable, Equatable {
        var id = 0
        var phone = ""
    }

    struct Change: Codable, Sendable {
        var phone = ""
    }

    /// An actor of the app's that holds the token.
    actor TokenStore {
        var current = "token"
        func renew() async throws { current += "+" }
    }

    struct Logger: Sendable {
        func debug(_ message: String) {}
    }
}

// MARK: - Authentication and the client

extension NetworkingDocComments {
    static func bearer(tokens: TokenStore) -> APIClient {
        // sample: Sources/Networking/Authentication/RequestAdapter.swift#1
        struct BearerAuth: RequestAdapter {
            let tokens: TokenStore                      // an actor of your own
            func adapt(_ request: TransportRequest) async throws -> TransportRequest {
                var request = request
                request.headers["Authorization"] = "Bearer \(await tokens.current)"
                return request
            }
            func refreshCredentials() async throws -> Bool {
                try await tokens.renew()                // throws: every waiting request fails with it
                return true
            }
        }
        let client = APIClient(adapter: BearerAuth(tokens: tokens))
        // end sample
        return client
    }

    static func writes(client: APIClient, url: URL, edited: Contact, etag: String?, change: Change) async throws
        -> (Contact, Contact?)
    {
        // sample: Sources/Networking/Client/APIClient+Send.swift#1
        let saved: Contact = try await client.send(.put(url, body: edited, ifMatch: etag))
        let maybe: Contact? = try await client.send(.patch(url, body: change))   // nil for a 204
        // end sample
        return (saved, maybe)
    }

    static func delete(client: APIClient, url: URL, etag: String?) async throws {
        // sample: Sources/Networking/Client/APIClient+Send.swift#2
        try await client.send(.delete(url, ifMatch: etag))
        // end sample
    }

    protocol ContactsURLStore: URLStore, Sendable {
        var contactsURL: URL { get }
    }

    // sample: Sources/Networking/Client/APIClient.swift#1
    struct ContactsAPIManager {
        let urlStore: any ContactsURLStore
        let client = APIClient()
        func contacts() async throws -> [Contact] {
            try await client.fetch([Contact].self, from: urlStore.contactsURL)
        }
    }
    // end sample

    struct Stored: Sendable {
        var validators = Validators.none
    }

    static func conditional(client: APIClient, url: URL, stored: Stored) async throws -> FetchResult<[Contact]> {
        // sample: Sources/Networking/Client/APIClient.swift#2
        let result = try await client.fetch([Contact].self, from: url, ifChangedSince: stored.validators)
        // end sample
        return result
    }

    static func errors(client: APIClient, url: URL) async throws {
        // sample: Sources/Networking/Client/APIError.swift#1
        do { _ = try await client.fetch([Contact].self, from: url) }
        catch let error as APIError { print(error) }
        // HTTP 404 from http://127.0.0.1:8080/contacts
        // unexpected JSON at file:///…/contacts.json: expected String at $[3].phone: …
        // end sample
    }

    static func requests(client: APIClient, url: URL, edited: Contact, draft: Contact, draftID: String, etag: String?)
        async throws -> [Contact]
    {
        // sample: Sources/Networking/Client/APIRequest.swift#1
        let saved: Contact = try await client.send(.put(url, body: edited, ifMatch: etag))
        let created: Contact = try await client.send(.post(url, body: draft, idempotencyKey: draftID))
        try await client.send(.delete(url, ifMatch: etag))        // 204: nothing to decode
        // end sample
        return [saved, created]
    }

    static func exchanges(logger: Logger) -> APIClient {
        // sample: Sources/Networking/Client/ExchangeReport.swift#1
        let client = APIClient(onExchange: { report in logger.debug("\(report)") })
        // PUT https://api.example.com/contacts/7 → 200, 42 bytes sent, 118 received, 23 ms, attempt 1
        // end sample
        return client
    }
}

// MARK: - Transport

extension NetworkingDocComments {
    static func httpMethod(url: URL, json: Data) -> TransportRequest {
        // sample: Sources/Networking/Transport/HTTPMethod.swift#1
        let request = TransportRequest(method: .put, url: url, headers: ["Content-Type": "application/json"], body: json)
        // end sample
        return request
    }

    static func signOut() {
        // sample: Sources/Networking/Transport/Transport+Cookies.swift#1
        Transport.removeSharedCookies()   // at a sign-out
        // end sample
    }

    static func transports(url: URL, json: Data) -> (APIClient, Transport) {
        // sample: Sources/Networking/Transport/Transport.swift#1
        let client = APIClient(transport: .inMemory([url: TransportResponse(url: url, statusCode: 200, body: json)]))
        let logged = Transport { request in
            print("GET", request.url)
            return try await Transport.standard().send(request)
        }
        // end sample
        return (client, logged)
    }

    static func limits() -> APIClient {
        // sample: Sources/Networking/Transport/TransportLimits.swift#1
        let client = APIClient(transport: .standard(limits: TransportLimits(idleTimeout: .seconds(10), deadline: .seconds(30))))
        // end sample
        return client
    }

    static func transportRequests(url: URL, json: Data) -> [TransportRequest] {
        // sample: Sources/Networking/Transport/TransportRequest.swift#1
        let read = TransportRequest(url: url)
        let write = TransportRequest(method: .put, url: url, headers: ["Content-Type": "application/json"], body: json)
        // end sample
        return [read, write]
    }

    static func redacted() -> String {
        // sample: Sources/Networking/URL+Redacted.swift#1
        URL(string: "https://alice:pw@api.example.com/v1?api_key=abc&page=2#t=1")!.redactedForDisplay
        // "https://api.example.com/v1?api_key=***&page=2#***"
        // end sample
    }
}
