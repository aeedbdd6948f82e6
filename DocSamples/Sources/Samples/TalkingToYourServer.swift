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
