import ContentLoadingSupport

/// One client's credential refreshes, single-flight: the requests refused with the same
/// credentials share one refresh.
///
/// Each refresh that succeeds starts a new generation. A request notes the ``Ticket`` it took
/// its credentials with; after a `401` it asks to ``renew(after:with:)`` them. When a refresh
/// has renewed them since, the request only sends again; when one is running, it waits for
/// it; when one that did not renew them (it failed, or could not) ended since, the request
/// gets its outcome; otherwise it starts one.
final class CredentialRefresh: Sendable {
    /// When a request took its credentials: their generation, and how many refreshes had ended.
    struct Ticket: Sendable {
        let generation: Int
        let refreshesEnded: Int
    }

    private struct State {
        var generation = 0
        var refreshesEnded = 0
        var inFlight: (generation: Int, task: Task<Bool, any Error>)?
        /// The last refresh that did not renew the credentials: when it ended, and how.
        var lastUnrenewed: (ended: Int, outcome: Result<Bool, any Error>)?
    }

    private let state = Locked(State())

    /// The ticket of a request taking the current credentials.
    var ticket: Ticket { state.withLock { Ticket(generation: $0.generation, refreshesEnded: $0.refreshesEnded) } }

    /// Renews the credentials of `ticket` with `refresh` unless that is done or under way,
    /// and returns whether newer credentials exist.
    ///
    /// The refresh runs in a task of its own, so a waiter that is cancelled does not cancel it
    /// for the others.
    func renew(after ticket: Ticket, with refresh: @escaping @Sendable () async throws -> Bool) async throws -> Bool {
        let task: Task<Bool, any Error>? = state.withLock { state in
            if state.generation > ticket.generation { return nil }
            if let inFlight = state.inFlight { return inFlight.task }
            // NB: a refresh that failed after this request was sent answers it too: a refusal
            // that arrives late does not start a second one.
            if let unrenewed = state.lastUnrenewed, unrenewed.ended > ticket.refreshesEnded {
                let outcome = unrenewed.outcome
                return Task { try outcome.get() }
            }
            let started = state.generation
            let task = Task { [weak self] in
                do {
                    let renewed = try await refresh()
                    self?.finish(started, .success(renewed))
                    return renewed
                } catch {
                    self?.finish(started, .failure(error))
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
    private func finish(_ generation: Int, _ outcome: Result<Bool, any Error>) {
        state.withLock { state in
            guard state.inFlight?.generation == generation else { return }
            state.inFlight = nil
            state.refreshesEnded += 1
            if case .success(true) = outcome {
                state.generation += 1
            } else {
                state.lastUnrenewed = (state.refreshesEnded, outcome)
            }
        }
    }
}
