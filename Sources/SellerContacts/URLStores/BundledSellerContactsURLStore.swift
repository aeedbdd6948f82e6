import Foundation

/// Endpoints served from JSON shipped inside the `SellerContacts` module: the embedded
/// default data the example runs on, with no network.
public struct BundledSellerContactsURLStore: SellerContactsURLStore {
    /// Creates the store.
    public init() {}

    /// The `file://` URL of the bundled `seller-contacts.json`.
    ///
    /// If the resource bundle is incomplete the URL still points where the file should be, so
    /// loading fails with an error naming that path instead of crashing.
    public var sellerContactsURL: URL {
        Bundle.module.url(forResource: "seller-contacts", withExtension: "json")
            ?? Bundle.module.bundleURL.appendingPathComponent("seller-contacts.json")
    }
}
