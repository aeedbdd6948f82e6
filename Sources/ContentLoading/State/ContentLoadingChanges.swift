/// What a ``ContentLoadingStateMachine`` event changed, so its owner publishes only that.
public struct ContentLoadingChanges: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: UInt8
    /// Creates a set from raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The state changed.
    public static let state = ContentLoadingChanges(rawValue: 1 << 0)
    /// The content (``ContentLoadingState/content``) was replaced.
    public static let content = ContentLoadingChanges(rawValue: 1 << 1)
    /// A new error occurred.
    public static let error = ContentLoadingChanges(rawValue: 1 << 2)
}
