/// What a ``ContentLoadingStateMachine`` event changed, so its owner publishes only that.
public struct ContentLoadingChanges: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: UInt8
    /// Creates a set from raw bits.
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The state changed.
    @inlinable public static var state: Self { Self(rawValue: 1 << 0) }
    /// The content (``ContentLoadingState/content``) was replaced.
    @inlinable public static var content: Self { Self(rawValue: 1 << 1) }
    /// A new error occurred.
    @inlinable public static var error: Self { Self(rawValue: 1 << 2) }
}
