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

    /// Splits a stream of events into its values and presents each error on `presenter`, as
    /// the message `makeMessage` makes of it; the values keep flowing after an error, and an
    /// error is presented before any value that came after it.
    ///
    /// ```swift
    /// let messages = MessagePresenter()
    /// for await contacts in repository.events().values(presentingErrorsOn: messages) {
    ///     show(contacts)
    /// }
    /// ```
    public func values<Value: Sendable>(
        presentingErrorsOn presenter: MessagePresenter,
        as makeMessage: @escaping @Sendable (any Error) -> Message = { Message(error: $0) }
    ) -> AsyncCompactMapSequence<Self, Value> where Element == ContentEvent<Value> {
        compactMap { event in
            switch event {
            case .value(let value): return value
            case .error(let error):
                let message = makeMessage(error)
                await presenter.present(message)
                return nil
            }
        }
    }
}
