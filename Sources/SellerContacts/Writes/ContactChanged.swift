import ContentLoading
import Foundation

/// A contact changed on the server since the copy an edit was made on, found by reading it
/// before the edit is sent (the store held no entity tag for it, so a `PUT` could not be made
/// conditional): a conflict, resolved as a `412` would be.
public struct ContactChanged: WriteConflictError, Equatable, CustomStringConvertible {
    /// The contact as the server holds it now.
    public let current: SellerContacts
    /// Its entity tag; `nil` when the server sent none.
    public let entityTag: String?

    /// Creates the error.
    public init(current: SellerContacts, entityTag: String?) {
        self.current = current
        self.entityTag = entityTag
    }

    /// The server's contact as the conflict's body, with its entity tag.
    public var writeConflict: WriteConflict? {
        WriteConflict(body: try? JSONEncoder().encode(current), entityTag: entityTag)
    }

    /// "contact 2 changed on the server since the copy the edit was made on".
    public var description: String {
        "contact \(current.order) changed on the server since the copy the edit was made on"
    }
}
