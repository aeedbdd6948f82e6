/// What a ``Mutation`` sends with: the key that makes a second delivery harmless, the server's
/// version of the element to send as `If-Match`, and the element as the user sees it.
public struct MutationContext<Element: Sendable>: Sendable {
    /// The mutation's idempotency key (an `Idempotency-Key` header): the same on every attempt,
    /// before and after a relaunch, so a server that remembers it applies the mutation once.
    public let idempotencyKey: String
    /// The entity tag of the server value the store holds (for `If-Match`); `nil` when the
    /// server gave none.
    public let entityTag: String?
    /// The element as the server last gave it; `nil` when the store does not hold it.
    public let serverValue: Element?
    /// The element with this mutation applied (and the ones performed before it); `nil` when
    /// the store does not hold it (no list, page or detail over the store fetched or saved it):
    /// the server's answer is then not stored either. Sent again after an answer was lost, when
    /// the server value fetched since is the element this mutation's request sent (the server
    /// stored it), it is that value, as ``serverValue`` is: the same request again.
    public let edited: Element?
    /// Which attempt this is, from 1, within one run of the queue.
    public let attempt: Int

    /// The same context for attempt `attempt`.
    func attempt(_ attempt: Int) -> MutationContext {
        MutationContext(
            idempotencyKey: idempotencyKey, entityTag: entityTag, serverValue: serverValue, edited: edited,
            attempt: attempt)
    }
}
