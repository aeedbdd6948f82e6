/// What a conditional fetch found: a new value with its ``Validators``, or that the value the
/// client holds is still current.
///
/// ```swift
/// switch try await client.fetch([Contact].self, from: url, ifChangedSince: held) {
/// case .modified(let contacts, let validators): store(contacts, validators)
/// case .notModified(let validators): keep(held, validators)    // nothing was decoded
/// }
/// ```
public enum FetchResult<Value: Sendable>: Sendable {
    /// The resource changed (or the fetch was unconditional): its value and its validators.
    case modified(Value, Validators)
    /// The resource has not changed since the validators the fetch sent (HTTP 304); these are
    /// the validators to send next time (the server may have refreshed them).
    case notModified(Validators)

    /// The validators of either case.
    public var validators: Validators {
        switch self {
        case .modified(_, let validators), .notModified(let validators): validators
        }
    }

    /// The new value, if the resource changed.
    public var value: Value? {
        if case .modified(let value, _) = self { value } else { nil }
    }
}

extension FetchResult: Equatable where Value: Equatable {}
