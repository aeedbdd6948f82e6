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
        return try Self.checked(try await client.fetch([SellerContacts].self, from: url), from: url)
    }

    /// The seller's contacts, unless the copy identified by `validators` is still current
    /// (an http(s) server that answers `304 Not Modified`; a file is always read whole).
    ///
    /// ```swift
    /// let result = try await api.sellerContacts(ifChangedSince: held.validators)
    /// ```
    ///
    /// - Throws: What ``sellerContacts()`` throws.
    public func sellerContacts(ifChangedSince validators: Validators) async throws -> FetchResult<[SellerContacts]> {
        let url = urlStore.sellerContactsURL
        switch try await client.fetch([SellerContacts].self, from: url, ifChangedSince: validators) {
        case .modified(let contacts, let validators):
            return .modified(try Self.checked(contacts, from: url), validators)
        case .notModified(let validators): return .notModified(validators)
        }
    }

    /// `contacts` when no two share an `order`; otherwise a decoding error naming both positions.
    private static func checked(_ contacts: [SellerContacts], from url: URL) throws -> [SellerContacts] {
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
