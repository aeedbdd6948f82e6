import Foundation

/// What a ``PersistentTier`` update read and wrote (see ``PersistentTier/update(_:now:writtenAt:_:)``).
struct TierUpdate<Value: Sendable>: Sendable {
    /// The stored entry the transform was given; `nil` when there was none.
    let read: PersistedEntry<Value>?
    /// The value the transform returned and what the write stored; `nil` when it returned `nil`
    /// (nothing was written).
    let written: (value: Value, write: TierWrite<Value>)?
}

/// An error the transform of an update threw, carried out of the tier as it is (not named as a
/// failure of the tier's read or write).
struct UpdateTransformFailure: Error {
    let error: any Error

    /// `transform(value)`, its error wrapped.
    static func transforming<Value>(_ value: Value?, with transform: (Value?) throws -> Value?) throws -> Value? {
        do {
            return try transform(value)
        } catch {
            throw UpdateTransformFailure(error: error)
        }
    }
}
