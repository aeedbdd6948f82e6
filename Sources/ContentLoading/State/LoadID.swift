/// Identifies one load started by a ``ContentLoadingStateMachine``.
///
/// Identifiers increase with every load a machine starts, so a larger one is a newer load.
public struct LoadID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The load's sequence number, starting at 1.
    public let rawValue: UInt64

    /// Creates an identifier from its sequence number.
    @inlinable public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    /// Whether `lhs` was started before `rhs`.
    @inlinable public static func < (lhs: LoadID, rhs: LoadID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `#` followed by the sequence number.
    public var description: String { "#\(rawValue)" }
}
