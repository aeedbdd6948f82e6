/// The case of a ``ContentLoadingState`` without its payload.
///
/// Handy where only the shape of a sequence of states matters:
///
/// ```swift
/// #expect(recorder.phases == [.unloaded, .loading, .success])
/// ```
public enum ContentLoadingPhase: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// See ``ContentLoadingState/unloaded``.
    case unloaded
    /// See ``ContentLoadingState/loading(previous:)``.
    case loading
    /// See ``ContentLoadingState/empty``.
    case empty
    /// See ``ContentLoadingState/success(_:)``.
    case success
    /// See ``ContentLoadingState/error(_:previous:)``.
    case error

    /// The case's name, e.g. `loading`.
    public var description: String { rawValue }
}
