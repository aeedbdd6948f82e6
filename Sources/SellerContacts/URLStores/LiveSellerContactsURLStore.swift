import Foundation

/// The live endpoints, on a server given at init.
///
/// ```swift
/// let store = LiveSellerContactsURLStore(baseURL: URL(string: "https://api.example.com/v1/")!)
/// let url = store.sellerContactsURL   // https://api.example.com/v1/seller/contacts
/// ```
public struct LiveSellerContactsURLStore: SellerContactsURLStore {
    /// The server's base URL (https in production; http on a local test server).
    public let baseURL: URL

    /// Creates a store for the server at `baseURL`.
    public init(baseURL: URL) { self.baseURL = baseURL }

    /// `<baseURL>/seller/contacts`.
    public var sellerContactsURL: URL {
        baseURL.appendingPathComponent("seller").appendingPathComponent("contacts")
    }
}
