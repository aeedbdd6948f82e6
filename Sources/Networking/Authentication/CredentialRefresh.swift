import ContentLoadingSupport

/// One client's credential refreshes, single-flight: the requests refused with the same
/// credentials share one refresh.
///
/// Each refresh that succeeds starts a new generation. A request notes the ``Ticket`` it took
/// its credentials with; after a `401` it asks to ``renew(after:until:with:)`` them. When a
/// refresh has renewed them since, the request only sends again; when one is running, it waits
/// for it; when one that did not renew them (it failed, or could not) ended since, the request
/// gets its outcome; otherwise it starts one.
///
/// A request waits for the refresh on its own terms: cancelled, or at its load's deadline, it
/// stops waiting at once, and the refresh goes on for the others, and to its end when none
/// waits (a token server may rotate the refresh token: an answer cut short would lose it).
/// Not a `SingleFlight`: whether a request joins the refresh running, takes the outcome of
/// one that ended, or starts one is decided under one lock with the generations.
final class CredentialRefresh: Sendable {
    /// When a request took its credentials: their generation, and how many refreshes had ended.
    struct Ticket: Sendable {
        let generation: Int
        let refreshesEnded: Int
    }

    /// Where a request stops waiting for a refresh: the instant, and the error it throws then.
    struct Deadline: Sendable {
        let end: ContinuousClock.Instant
        let error: any Error
    }

    private typealias Waiter = CheckedContinuation<Bool, any Error>

    private struct State {
        var generation = 0
        var refreshesEnded = 0
        /// The refresh running: the generation it renews, and the requests waiting for it.
        var inFlight: (generation: Int, waiters: [Int: Waiter])?
        var lastWaiter = 0
        /// The last refresh that did not renew the credentials: when it ended, and how.
        var lastUnrenewed: (ended: Int, outcome: Result<Bool, any Error>)?
    }

    private let state = Locked(State())

    /// The ticket of a request taking the current credentials.
    var ticket: Ticket { state.withLock { Ticket(generation: $0.generation, refreshesEnded: $0.refreshesEnded) } }

    /// Renews the credentials of `ticket` with `refresh` unless that is done or under way,
    /// and returns whether newer credentials exist.
    ///
    /// - Throws: The refresh's error; `CancellationError` as soon as the calling task is
    ///   cancelled; `deadline`'s error once it passes. The refresh runs in a task of its own,
    ///   so a waiter that stops does not stop it for the others.
    func renew(
        after ticket: Ticket, until deadline: Deadline?, with refresh: @escaping @Sendable () async throws -> Bool
    ) async throws -> Bool {
        let waiter = state.withLock { state in
            state.lastWaiter += 1
            return state.lastWaiter
        }
        // NB: the timer ends the wait at the deadline; it is cancelled once the wait ends.
        let timer = deadline.map { deadline in
            Task { [weak self] in
                guard (try? await Task.sleep(until: deadline.end)) != nil else { return }
                self?.stopWaiting(waiter, with: deadline.error)
            }
        }
        defer { timer?.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: Waiter) in
                let now = state.withLock { state in
                    answer(to: ticket, waiter: waiter, continuation, until: deadline, refresh: refresh, in: &state)
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            stopWaiting(waiter, with: CancellationError())
        }
    }

    /// What `ticket`'s request gets at once, or `nil` when it waits for the refresh, as
    /// `waiter` (a refresh it starts when none runs).
    private func answer(
        to ticket: Ticket, waiter: Int, _ continuation: Waiter, until deadline: Deadline?,
        refresh: @escaping @Sendable () async throws -> Bool, in state: inout State
    ) -> Result<Bool, any Error>? {
        // NB: checked under the lock that `stopWaiting` takes, so a cancellation or a deadline
        // that came before the waiter is registered is not missed.
        if Task.isCancelled { return .failure(CancellationError()) }
        if let deadline, ContinuousClock.now >= deadline.end { return .failure(deadline.error) }
        // NB: a refresh ended since this request took its credentials; send it again.
        if state.generation > ticket.generation { return .success(true) }
        if state.inFlight == nil {
            // NB: a refresh that failed after this request was sent answers it too: a refusal
            // that arrives late does not start a second one.
            if let unrenewed = state.lastUnrenewed, unrenewed.ended > ticket.refreshesEnded {
                return unrenewed.outcome
            }
            let started = state.generation
            state.inFlight = (started, [:])
            Task {
                let outcome: Result<Bool, any Error>
                do { outcome = .success(try await refresh()) } catch { outcome = .failure(error) }
                finish(started, outcome)
            }
        }
        state.inFlight?.waiters[waiter] = continuation
        return nil
    }

    /// Ends `waiter`'s wait with `error`, if it still waits.
    private func stopWaiting(_ waiter: Int, with error: any Error) {
        state.withLock { $0.inFlight?.waiters.removeValue(forKey: waiter) }?.resume(throwing: error)
    }

    /// Ends the refresh of `generation`: a new generation when it renewed the credentials; every
    /// request still waiting gets the outcome.
    private func finish(_ generation: Int, _ outcome: Result<Bool, any Error>) {
        let waiters = state.withLock { state -> [Waiter] in
            guard let inFlight = state.inFlight, inFlight.generation == generation else { return [] }
            state.inFlight = nil
            state.refreshesEnded += 1
            if case .success(true) = outcome {
                state.generation += 1
            } else {
                state.lastUnrenewed = (state.refreshesEnded, outcome)
            }
            return Array(inFlight.waiters.values)
        }
        for waiter in waiters { waiter.resume(with: outcome) }
    }
}
