import ContentLoading

extension RefreshHandle {
    /// Waits until the refresh settles (something is shown), as `settled()` does, for at most
    /// `timeout`: the wait for tests, which fails instead of hanging the suite.
    ///
    /// ```swift
    /// let state = try await model.refresh("a").settled(timeout: .seconds(5))
    /// #expect(state == .success([1, 2]))
    /// ```
    ///
    /// - Parameter timeout: How long to wait. Pass ``WaitTimeout/defaultTimeout`` for the
    ///   recorders' 60 seconds.
    /// - Returns: The state the refresh settled in.
    /// - Throws: ``WaitTimeout`` (naming the model's state then) when `timeout` passes first;
    ///   `CancellationError` when the waiting task is cancelled first.
    public func settled(timeout: Duration) async throws -> ContentLoadingState<Output> {
        if isSettled { return await settled() }
        return try await wait("settle", timeout: timeout) { await $0.settled() }
    }

    /// Waits until the refresh is complete (its load ended, or caught up: a cached loader's
    /// fetch is stored and shown), as `completed()` does, for at most `timeout`.
    ///
    /// - Parameter timeout: How long to wait.
    /// - Returns: The state when the refresh completed.
    /// - Throws: ``WaitTimeout`` (naming the model's state then) when `timeout` passes first;
    ///   `CancellationError` when the waiting task is cancelled first.
    public func completed(timeout: Duration) async throws -> ContentLoadingState<Output> {
        if isCompleted { return await completed() }
        return try await wait("complete", timeout: timeout) { await $0.completed() }
    }

    private func wait(
        _ event: String, timeout: Duration, until wait: @escaping @Sendable (Self) async -> ContentLoadingState<Output>
    ) async throws -> ContentLoadingState<Output> {
        try await withTimeout(
            timeout, awaiting: { [self] in "the refresh to \(event); the model's state is \(publishedState)" }
        ) { [self] in
            let state = await wait(self)
            try Task.checkCancellation()
            return state
        }
    }
}
