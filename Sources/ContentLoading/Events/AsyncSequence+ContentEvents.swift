extension AsyncSequence {
    /// Splits a stream of events into its values, handing each error to `onError` once; the
    /// values keep flowing after an error.
    ///
    /// ```swift
    /// for await contacts in repository.events().values(onError: { presentAlert($0) }) {
    ///     show(contacts)
    /// }
    /// ```
    public func values<Value: Sendable>(
        onError: @escaping @Sendable (any Error) -> Void
    ) -> AsyncCompactMapSequence<Self, Value> where Element == ContentEvent<Value> {
        compactMap { event in
            switch event {
            case .value(let value): return value
            case .error(let error):
                onError(error)
                return nil
            }
        }
    }
}
