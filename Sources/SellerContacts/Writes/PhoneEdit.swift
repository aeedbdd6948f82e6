import ContentLoadingRepository
import Foundation

/// A new phone number for one of the seller's contacts: an edit that must reach the server.
///
/// Performed through an `Outbox`, it is shown at once by every list and detail holding the
/// contact, kept in the store's file until the server confirms it (across relaunches), and
/// sent as `PUT <contacts URL>/<order>` with the edited contact as its JSON body, the
/// contact's entity tag as `If-Match` and the edit's `Idempotency-Key`
/// (``SellerContactsAPIManager/update(_:ifMatch:idempotencyKey:)``).
///
/// ```swift
/// let outbox = Outbox(store: contacts, environment: api, mutations: [PhoneEdit.self])
/// try await outbox.perform(PhoneEdit(order: 2, phone: "+1 555 0199"))
/// ```
public struct PhoneEdit: Mutation, Equatable {
    /// The contact it edits (its ``SellerContacts/order``).
    public let order: Int
    /// The new phone number; `nil` removes it.
    public let phone: String?

    /// Creates an edit of contact `order`'s phone number.
    public init(order: Int, phone: String?) {
        self.order = order
        self.phone = phone
    }

    /// The stored name: kept if the type is renamed, so stored edits still decode.
    public static var mutationName: String { "SellerContacts.PhoneEdit" }

    /// The contact's ``SellerContacts/order``.
    public var elementID: Int { order }

    /// Sets the phone number.
    public func apply(to contact: inout SellerContacts) { contact.phone = phone }

    /// Sends the contact as edited over the server's last value.
    ///
    /// - Throws: ``MissingContact`` when the store does not hold the contact (nothing to send:
    ///   the edit is rolled back), or what the API manager's `update` throws.
    public func send(using api: SellerContactsAPIManager, context: MutationContext<SellerContacts>) async throws
        -> MutationResult<SellerContacts>
    {
        guard let edited = context.edited else { throw MissingContact(order: order) }
        let saved = try await api.update(edited, ifMatch: context.entityTag, idempotencyKey: context.idempotencyKey)
        return MutationResult(value: saved.contact, entityTag: saved.entityTag)
    }
}
