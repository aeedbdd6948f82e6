/// The server's answer to a ``Mutation``: the element as it holds it now and its entity tag,
/// which become the element's server value (the next mutation's `If-Match`).
///
/// ```swift
/// let response = try await client.send(.put(url, body: context.edited, ifMatch: context.entityTag))
/// return MutationResult(value: try client.decode(Contact.self, from: response.body, url: url), entityTag: response.validators.entityTag)
/// ```
public struct MutationResult<Element: Sendable>: Sendable {
    /// The element as the server holds it now; `nil` when the server did not send it (the
    /// server value is then taken to be the edit applied to the one the store held, or the
    /// value fetched since the request went when that is the one it sent). It must be
    /// the element the mutation edits: another one (an answer with another id) rejects the
    /// mutation (``OutboxEvent/rejected(_:_:)``, with a `CacheError` naming both ids), and
    /// nothing of it is stored.
    public var value: Element?
    /// The element's entity tag now; `nil` when the server gave none.
    public var entityTag: String?

    /// Creates an answer.
    public init(value: Element?, entityTag: String? = nil) {
        self.value = value
        self.entityTag = entityTag
    }

    /// The server did what was asked and sent nothing back.
    public static var done: MutationResult { MutationResult(value: nil) }
}
