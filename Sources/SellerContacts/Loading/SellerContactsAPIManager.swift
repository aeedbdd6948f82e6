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
    /// - Throws: ``APIError`` naming the URL and what failed, or `CancellationError`.
    public func sellerContacts() async throws -> [SellerContacts] {
        try await client.fetch([SellerContacts].self, from: urlStore.sellerContactsURL)
    }
}
