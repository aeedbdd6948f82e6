/// A mutation the server refused because the element changed since the copy it edits (a `412`
/// for a stale `If-Match`, or a `409`): what the user meant and what the server holds now.
public struct MutationConflict<Element: Sendable>: Sendable {
    /// The element as the mutation would make it, over the server value the store held; `nil`
    /// when the store did not hold the element.
    public let local: Element?
    /// The element as the server holds it now; `nil` when the server did not send it.
    public let server: Element?
    /// The element's entity tag now; `nil` when the server gave none.
    public let entityTag: String?
}

/// How a conflict of a ``Mutation`` ends (see ``Mutation/resolve(_:)``).
public enum ConflictResolution: Sendable, Equatable {
    /// The server's value stays: the mutation is rolled back, and the element's server value
    /// becomes the one the server sent with the conflict.
    case serverWins
    /// The mutation is applied again over the server's current value (the mutation's
    /// ``Mutation/apply(to:)`` changes only what the user changed) and sent again with the
    /// current entity tag. When the server sent no value, the copy the store held is edited.
    case clientWins
    /// The mutation's ``Mutation/merge(_:)`` makes the value sent again, with the current
    /// entity tag, from what the user meant and what the server holds now (`nil` from it: the
    /// server wins).
    case merge
    /// The mutation is held, still shown and pending, until the app decides with
    /// ``Outbox/resolve(_:with:)``; the element's later mutations wait behind it. A relaunch
    /// sends it again (and asks again if the conflict is still there).
    case ask
}
