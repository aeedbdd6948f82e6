import ContentLoadingNetworking
import Foundation

/// The endpoints the SellerContacts example loads from.
///
/// Adopt it with a live store in the app and a fixture store in tests:
/// ``LiveSellerContactsURLStore``, ``BundledSellerContactsURLStore``, or any other.
public protocol SellerContactsURLStore: URLStore {
    /// Where the seller's contacts are: a JSON array of ``SellerContacts``.
    var sellerContactsURL: URL { get }
}

/// A store whose contacts URL is given as it is: any `file://` or `http(s)://` URL.
public struct FixedSellerContactsURLStore: SellerContactsURLStore {
    /// The contacts URL.
    public let sellerContactsURL: URL

    /// Creates a store that loads contacts from `url`.
    public init(_ url: URL) { sellerContactsURL = url }
}
