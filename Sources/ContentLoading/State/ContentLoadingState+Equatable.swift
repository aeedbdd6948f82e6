extension ContentLoadingState: Equatable where Value: Equatable {
    /// Two states are equal when they are the same case with equal payloads.
    ///
    /// Errors have no equality of their own, so two errors compare equal when they have the
    /// same dynamic type and either are equal under that type's `Equatable` conformance (when it
    /// has one) or, failing that, print the same `String(reflecting:)` description.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.unloaded, .unloaded), (.empty, .empty):
            true
        case (.loading(let a), .loading(let b)):
            a == b
        case (.success(let a), .success(let b)):
            a == b
        case (.error(let e1, let a), .error(let e2, let b)):
            a == b && errorsAreEqual(e1, e2)
        default:
            false
        }
    }
}

/// Compares two errors as documented on ``ContentLoadingState/==(_:_:)``.
package func errorsAreEqual(_ lhs: any Error, _ rhs: any Error) -> Bool {
    guard type(of: lhs) == type(of: rhs) else { return false }
    if let equatable = asEquatable(lhs) {
        return equatable.isEqual(toAny: rhs)
    }
    return String(reflecting: lhs) == String(reflecting: rhs)
}

private func asEquatable(_ value: Any) -> (any Equatable)? {
    value as? any Equatable
}

extension Equatable {
    fileprivate func isEqual(toAny other: Any) -> Bool {
        (other as? Self).map { $0 == self } ?? false
    }
}
