/// An edit of a contact the store does not hold: there is no contact to send.
public struct MissingContact: Error, Equatable, CustomStringConvertible {
    /// The contact's ``SellerContacts/order``.
    public let order: Int

    /// Creates the error.
    public init(order: Int) { self.order = order }

    /// "no contact with order 9 is stored: there is nothing to edit".
    public var description: String { "no contact with order \(order) is stored: there is nothing to edit" }
}
