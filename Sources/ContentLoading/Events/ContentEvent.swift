/// A value or an error, delivered as an event so that an error does not end the stream.
///
/// A single-source-of-truth repository yields stored values and reports sync errors in one
/// stream; the values keep flowing after an error:
///
/// ```swift
/// for await event in repository.events() {
///     switch event {
///     case .value(let contacts): show(contacts)
///     case .error(let error): showBanner(error)      // the stream goes on
///     }
/// }
/// ```
public enum ContentEvent<Value: Sendable>: Sendable {
    /// A new value.
    case value(Value)
    /// An error that did not end the stream.
    case error(any Error)

    /// The value, or `nil` for an error.
    public var value: Value? {
        if case .value(let value) = self { return value }
        return nil
    }

    /// The error, or `nil` for a value.
    public var error: (any Error)? {
        if case .error(let error) = self { return error }
        return nil
    }
}
