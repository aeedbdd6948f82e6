/// One way to reach a seller: a phone number and/or an address, ranked by `order`.
///
/// The JSON form is an array of objects:
///
/// ```json
/// [{ "order": 1, "phone": "+1 555 0100", "address": "1 Infinite Loop, Cupertino" }]
/// ```
///
/// `phone` and `address` may be missing or `null`; `order` is required.
public struct SellerContacts: Codable, Sendable, Hashable, Identifiable {
    /// The postal address, if the seller gave one.
    public var address: String?
    /// The rank among the seller's contacts; lower comes first.
    public var order: Int
    /// The phone number, if the seller gave one.
    public var phone: String?

    /// Creates a contact.
    public init(address: String? = nil, order: Int, phone: String? = nil) {
        self.address = address
        self.order = order
        self.phone = phone
    }

    /// The contact's identity: its `order`.
    ///
    /// A seller's contacts are ranked, and the rank is what stays put when a seller edits a
    /// phone number or an address, so a list animates such an edit as an update rather than a
    /// removal and an insertion. The single-source-of-truth store uses it as the primary key.
    /// Sources must not give two contacts of one seller the same `order`.
    public var id: Int { order }
}
