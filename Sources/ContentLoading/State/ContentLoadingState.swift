/// The state of a piece of asynchronously loaded content.
///
/// A loader starts ``unloaded``, moves to ``loading(previous:)`` when a refresh starts, and settles in
/// ``empty``, ``success(_:)`` or ``error(_:previous:)``. Loading and error carry the last good
/// content (`previous`), so a screen can keep showing what the user already saw under a
/// spinner or an error banner instead of a blank page.
///
/// A plain `case .loading:` or `case .error:` still matches regardless of the carried content:
///
/// ```swift
/// switch loader.state {
/// case .unloaded, .loading(previous: nil):
///     showSpinner()
/// case .loading(previous: let contacts?):
///     show(contacts, refreshing: true)
/// case .success(let contacts):
///     show(contacts)
/// case .empty:
///     showPlaceholder()
/// case .error(let error, let previous):
///     showBanner(error, over: previous)
/// }
/// ```
public enum ContentLoadingState<Value: Sendable>: Sendable {
    /// Nothing has been loaded yet and no load is running.
    case unloaded
    /// A load is running.
    ///
    /// - Parameter previous: The last good content, if any, still readable while the load runs.
    case loading(previous: Value?)
    /// The last load succeeded with a value that counts as empty (see
    /// ``ContentLoadingViewModel/isEmpty(_:)``).
    ///
    /// An empty result is a result: it replaces earlier content rather than keeping it,
    /// so a stale list never reappears after the source says there is nothing.
    case empty
    /// The last load succeeded with a non-empty value.
    case success(Value)
    /// The last load failed.
    ///
    /// - Parameters:
    ///   - error: Why the load failed. Never a `CancellationError`: cancellation is not a failure.
    ///   - previous: The last good content, if any, kept so a screen can show it with the error.
    case error(any Error, previous: Value?)
}

extension ContentLoadingState {
    /// Whether a load is running.
    @inlinable public var isLoading: Bool {
        if case .loading = self { return true }
        return false
    }

    /// The value of a ``success(_:)`` state, or `nil` in every other state.
    @inlinable public var value: Value? {
        if case .success(let value) = self { return value }
        return nil
    }

    /// The error of an ``error(_:previous:)`` state, or `nil` in every other state.
    @inlinable public var error: (any Error)? {
        if case .error(let error, _) = self { return error }
        return nil
    }

    /// The content to show: the success value, or the last good content carried by
    /// ``loading(previous:)`` and ``error(_:previous:)``; `nil` when unloaded or empty.
    @inlinable public var content: Value? {
        switch self {
        case .unloaded, .empty: nil
        case .success(let value): value
        case .loading(let previous), .error(_, let previous): previous
        }
    }

    /// The case of this state without its payload, for compact comparisons in tests and logs.
    @inlinable public var phase: ContentLoadingPhase {
        switch self {
        case .unloaded: .unloaded
        case .loading: .loading
        case .empty: .empty
        case .success: .success
        case .error: .error
        }
    }
}

extension ContentLoadingState {
    /// This state with its content replaced by `output` and its case kept (for a settled
    /// state, `success` or `empty` per `isEmpty`); `unloaded` stays `unloaded`.
    @inlinable func replacingContent(with output: Value, isEmpty: Bool) -> ContentLoadingState {
        let content: Value? = isEmpty ? nil : output
        switch self {
        case .unloaded: return .unloaded
        case .success, .empty: return isEmpty ? .empty : .success(output)
        case .loading: return .loading(previous: content)
        case .error(let error, _): return .error(error, previous: content)
        }
    }
}
