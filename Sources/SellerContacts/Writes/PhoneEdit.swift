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
    /// A contact that came in the list has no entity tag of its own, and a `PUT` without
    /// `If-Match` would overwrite a change made on the server since, silently. So the contact
    /// is read first (``SellerContactsAPIManager/contact(order:)``): when it is neither the
    /// copy the edit was made on nor the edit itself (a replay after a kill), that is a
    /// conflict (``ContactChanged``); otherwise the `PUT` goes with the entity tag just read.
    ///
    /// - Throws: ``MissingContact`` when the store does not hold the contact (nothing to send:
    ///   the edit is rolled back), ``ContactChanged``, or what the API manager throws.
    public func send(using api: SellerContactsAPIManager, context: MutationContext<SellerContacts>) async throws
        -> MutationResult<SellerContacts>
    {
        guard let edited = context.edited else { throw MissingContact(order: order) }
        var ifMatch = context.entityTag
        if ifMatch == nil {
            let current = try await api.contact(order: order)
            // NB: the edit itself on the server is no change by someone else: a replay after a
            // kill, whose key the server has already applied.
            if let server = context.serverValue, current.contact != server, current.contact != edited {
                throw ContactChanged(current: current.contact, entityTag: current.entityTag)
            }
            ifMatch = current.entityTag
        }
        let saved = try await api.update(edited, ifMatch: ifMatch, idempotencyKey: context.idempotencyKey)
        return MutationResult(value: saved.contact, entityTag: saved.entityTag)
    }
}
