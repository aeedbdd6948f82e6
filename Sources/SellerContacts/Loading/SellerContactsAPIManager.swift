import ContentLoading
import ContentLoadingNetworking
import Foundation

/// Fetches the seller's contacts from the endpoint its URL store names.
///
/// ```swift
/// let api = SellerContactsAPIManager(urlStore: BundledSellerContactsURLStore())
/// let contacts = try await api.sellerContacts()
/// ```
public struct SellerContactsAPIManager: Sendable {
    /// Where the endpoints are.
    public let urlStore: any SellerContactsURLStore
    /// How URLs are loaded and decoded.
    public let client: APIClient

    /// Creates a manager.
    ///
    /// - Parameters:
    ///   - urlStore: Where the endpoints are: live, bundled, or a test fixture store.
    ///   - client: How URLs are loaded and decoded; the default reads files and uses `URLSession`.
    public init(urlStore: any SellerContactsURLStore, client: APIClient = APIClient()) {
        self.urlStore = urlStore
        self.client = client
    }

    /// The seller's contacts, in the order the source lists them.
    ///
    /// Two contacts with the same `order` (their ``SellerContacts/id``) make the whole list an
    /// error, by the kit's rule for duplicate ids (`DuplicateIDError`): nothing is shown or
    /// stored, and the error names both JSON positions.
    ///
    /// - Throws: `APIError` naming the URL and what failed, or `CancellationError`.
    public func sellerContacts() async throws -> [SellerContacts] {
        let url = urlStore.sellerContactsURL
        let contacts = try await client.fetch([SellerContacts].self, from: url)
        do {
            try DuplicateIDError.check(contacts)
        } catch let duplicate as DuplicateIDError {
            throw APIError.decoding(
                url: url, path: "$[\(duplicate.duplicatePosition)].order", expected: "an order no other contact has",
                reason: "order \(duplicate.id) is also at $[\(duplicate.firstPosition)]")
        }
        return contacts
    }
}
