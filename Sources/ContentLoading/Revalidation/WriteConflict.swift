import Foundation

/// A write the server refused because the resource changed since the copy the write edits
/// (HTTP `412 Precondition Failed` for a stale `If-Match`, or `409 Conflict`): the server's
/// current representation and entity tag, when it sent them.
public struct WriteConflict: Sendable, Equatable {
    /// The resource as the server holds it now; `nil` when the response had no body.
    public var body: Data?
    /// The resource's current entity tag; `nil` when the response gave none.
    public var entityTag: String?

    /// Creates a conflict.
    public init(body: Data?, entityTag: String?) {
        self.body = body
        self.entityTag = entityTag
    }
}

/// An error that can say the write it ends was refused as a ``WriteConflict``, so code that
/// does not know the transport (an outbox replaying edits) can resolve it.
public protocol WriteConflictError: Error {
    /// The conflict, when the error is one; `nil` otherwise.
    var writeConflict: WriteConflict? { get }
}
