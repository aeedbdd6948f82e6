extension ContentLoadingViewModel {
    /// A new stream of states: the current state first, then every transition in order.
    ///
    /// Any number of streams can be held at once; each finishes when the model is released.
    ///
    /// ```swift
    /// for await state in model.states { print(state.phase) }   // unloaded, loading, success…
    /// ```
    public var states: AsyncStream<ContentLoadingState<Output>> {
        hasStreams = true
        return outlets.states.subscribe(initial: storedState)
    }

    /// A new stream of the content: the current ``content`` first, then each replacement
    /// (a new value, or `nil` after an empty result). Loading and errors do not replace it.
    public var contents: AsyncStream<Output?> {
        hasStreams = true
        return outlets.contents.subscribe(initial: storedState.content)
    }

    /// A new stream of the errors that end loads from now on, each once.
    public var errors: AsyncStream<any Error> {
        hasStreams = true
        return outlets.errors.subscribe()
    }
}
