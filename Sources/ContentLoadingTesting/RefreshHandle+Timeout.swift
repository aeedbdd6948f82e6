import ContentLoading

extension RefreshHandle {
    /// Waits until the refresh settles, as `settled()` does, for at most `timeout`: the wait for
    /// tests, which fails instead of hanging the suite.
    ///
    /// ```swift
    /// let state = try await model.refresh("a").settled(timeout: .seconds(5))
    /// #expect(state == .success([1, 2]))
    /// ```
    ///
    /// - Parameter timeout: How long to wait. Pass ``WaitTimeout/defaultTimeout`` for the
    ///   recorders' 20 seconds.
    /// - Returns: The state the refresh settled in.
    /// - Throws: ``WaitTimeout`` (naming the model's state then) when `timeout` passes first;
    ///   `CancellationError` when the waiting task is cancelled first.
    public func settled(timeout: Duration) async throws -> ContentLoadingState<Output> {
        if isSettled { return await settled() }
        return try await withTimeout(
            timeout, awaiting: { [self] in "the refresh to settle; the model's state is \(publishedState)" }
        ) { [self] in
            let state = await settled()
            try Task.checkCancellation()
            return state
        }
    }
}
