import ContentLoadingSupport

/// One client's credential refreshes, single-flight: the requests refused with the same
/// credentials share one refresh.
///
/// Each refresh that succeeds starts a new generation. A request notes the generation it took
/// its credentials in; after a `401` it asks to ``renew(after:with:)`` that generation. When a
/// refresh has ended since, the request only sends again; when one is running, it waits for it;
/// otherwise it starts one.
final class CredentialRefresh: Sendable {
    private struct State {
        var generation = 0
        var inFlight: (generation: Int, task: Task<Bool, any Error>)?
    }

    private let state = Locked(State())

    /// The generation of the current credentials.
    var generation: Int { state.withLock { $0.generation } }

    /// Renews the credentials of `generation` with `refresh` unless that is done or under way,
    /// and returns whether newer credentials exist.
    ///
    /// The refresh runs in a task of its own, so a waiter that is cancelled does not cancel it
    /// for the others.
    func renew(after generation: Int, with refresh: @escaping @Sendable () async throws -> Bool)
        async throws -> Bool
    {
        let task: Task<Bool, any Error>? = state.withLock { state in
            if state.generation > generation { return nil }
            if let inFlight = state.inFlight { return inFlight.task }
            let started = state.generation
            let task = Task { [weak self] in
                do {
                    let renewed = try await refresh()
                    self?.finish(started, renewed: renewed)
                    return renewed
                } catch {
                    self?.finish(started, renewed: false)
                    throw error
                }
            }
            state.inFlight = (started, task)
            return task
        }
        // NB: nil: a refresh ended since this request took its credentials; send it again.
        guard let task else { return true }
        return try await task.value
    }

    /// Ends the refresh of `generation`: a new generation when it renewed the credentials.
    private func finish(_ generation: Int, renewed: Bool) {
        state.withLock { state in
            guard state.inFlight?.generation == generation else { return }
            state.inFlight = nil
            if renewed { state.generation += 1 }
        }
    }
}
