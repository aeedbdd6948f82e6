import ContentLoadingNetworking
import Foundation

extension SellerContactsAPIManager {
    /// The URL of one contact: the contacts URL with its `order` appended
    /// (`https://api.example.com/contacts/2`).
    public func contactURL(order: Int) -> URL {
        urlStore.sellerContactsURL.appendingPathComponent(String(order))
    }

    /// Loads one contact as the server holds it now: `GET <contacts URL>/<order>`.
    ///
    /// ```swift
    /// let (current, etag) = try await api.contact(order: 2)
    /// ```
    ///
    /// - Returns: The contact and its entity tag (`nil` when the server sent none).
    /// - Throws: `APIError` naming the URL and what failed (a `404` for a contact the server
    ///   does not hold).
    public func contact(order: Int) async throws -> (contact: SellerContacts, entityTag: String?) {
        let url = contactURL(order: order)
        let response = try await client.send(.get(url))
        return (try client.decode(SellerContacts.self, from: response.body, url: url), response.validators.entityTag)
    }

    /// Replaces a contact on the server: `PUT <contacts URL>/<order>` with `contact` as its JSON
    /// body.
    ///
    /// ```swift
    /// let saved = try await api.update(edited, ifMatch: etag, idempotencyKey: key)
    /// ```
    ///
    /// - Parameters:
    ///   - contact: The contact as it should be.
    ///   - ifMatch: The entity tag of the copy `contact` was edited from: a server that holds
    ///     another answers `412 Precondition Failed`. `nil` sends the write unconditionally.
    ///   - idempotencyKey: Sent as `Idempotency-Key`, the same for every delivery of one edit,
    ///     so a server that already applied it answers as it did and changes nothing.
    /// - Returns: The contact as the server holds it now (`nil` when it answered with no body)
    ///   and its entity tag.
    /// - Throws: `APIError` naming the method, the URL and what failed; `APIError.conflict`
    ///   for a `409` or `412`.
    public func update(_ contact: SellerContacts, ifMatch: String?, idempotencyKey: String) async throws
        -> (contact: SellerContacts?, entityTag: String?)
    {
        let url = contactURL(order: contact.order)
        let response = try await client.send(
            .put(url, body: contact, ifMatch: ifMatch, idempotencyKey: idempotencyKey))
        let saved = response.body.isEmpty ? nil : try client.decode(SellerContacts.self, from: response.body, url: url)
        return (saved, response.validators.entityTag)
    }
}
