import Foundation

/// A mutation in an ``Outbox``, as its events name it.
public struct PendingMutation<Element: Identifiable & Codable & Sendable, Environment: Sendable>: Sendable
where Element.ID: CacheKey {
    /// Its place in the order mutations were performed (larger: later).
    public let sequence: Int
    /// The stable text form of the id of the element it edits (``CacheKey/persistentKey``).
    public let elementKey: String
    /// The name it is stored under (``Mutation/mutationName``).
    public let name: String
    /// The key it is sent with.
    public let idempotencyKey: String
    /// When it was performed.
    public let performedAt: Date
    /// The mutation; `nil` when its stored form does not decode.
    public let mutation: (any Mutation<Element, Environment>)?
}
