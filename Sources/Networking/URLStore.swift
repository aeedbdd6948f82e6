/// The endpoints an app loads from, injected rather than hard-coded.
///
/// An app refines it with one property per endpoint, then provides a live store (https URLs)
/// and test stores (local JSON fixture files), so every endpoint can be swapped:
///
/// ```swift
/// protocol SellerContactsURLStore: URLStore {
///     var sellerContactsURL: URL { get }
/// }
///
/// struct LiveURLStore: SellerContactsURLStore {
///     let baseURL: URL
///     var sellerContactsURL: URL { baseURL.appending(path: "seller/contacts") }
/// }
///
/// struct TestURLStore: SellerContactsURLStore {
///     var sellerContactsURL: URL { Bundle.module.url(forResource: "contacts", withExtension: "json")! }
/// }
/// ```
///
/// An ``APIClient`` loads `file://` and `http(s)://` URLs alike, so an API manager built on one
/// works with either store.
public protocol URLStore: Sendable {}
