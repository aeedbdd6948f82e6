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

    private typealias Outcome = Result<Bool, any Error>

    private struct State {
        var generation = 0
        var refreshesEnded = 0
        /// The refresh running: the generation it renews, and the signal of its outcome.
        var inFlight: (generation: Int, outcome: SettleSignal<Outcome>)?
        /// The last refresh that did not renew the credentials: when it ended, and how.
        var lastUnrenewed: (ended: Int, outcome: Outcome)?
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
        let signal: SettleSignal<Outcome>
        switch state.withLock({ answer(to: ticket, refresh: refresh, in: &$0) }) {
        case .now(let outcome): return try outcome.get()
        case .wait(let running): signal = running
        }
        guard let deadline else { return try await Self.outcome(of: signal) }
        return try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask { try await Self.outcome(of: signal) }
            group.addTask {
                try await Task.sleep(until: min(deadline.end, .now + .longestSleep))
                throw deadline.error
            }
            defer { group.cancelAll() }
            // NB: non-nil: the group has two tasks.
            return try await group.next()!
        }
    }

    private enum Answer {
        case now(Outcome)
        case wait(SettleSignal<Outcome>)
    }

    /// What `ticket`'s request gets at once, or the refresh it waits for (one it starts when
    /// none runs).
    private func answer(to ticket: Ticket, refresh: @escaping @Sendable () async throws -> Bool, in state: inout State)
        -> Answer
    {
        // NB: a refresh ended since this request took its credentials; send it again.
        if state.generation > ticket.generation { return .now(.success(true)) }
        if let inFlight = state.inFlight { return .wait(inFlight.outcome) }
        // NB: a refresh that failed after this request was sent answers it too: a refusal that
        // arrives late does not start a second one.
        if let unrenewed = state.lastUnrenewed, unrenewed.ended > ticket.refreshesEnded {
            return .now(unrenewed.outcome)
        }
        let (started, signal) = (state.generation, SettleSignal<Outcome>())
        state.inFlight = (started, signal)
        Task {
            let outcome: Outcome
            do { outcome = .success(try await refresh()) } catch { outcome = .failure(error) }
            finish(started, outcome)
            signal.resolve(outcome)
        }
        return .wait(signal)
    }

    /// The outcome of the refresh `signal` tells of.
    ///
    /// - Throws: Its error, or `CancellationError` when the calling task is cancelled first.
    private static func outcome(of signal: SettleSignal<Outcome>) async throws -> Bool {
        guard let outcome = await signal.wait() else { throw CancellationError() }
        return try outcome.get()
    }

    /// Ends the refresh of `generation`: a new generation when it renewed the credentials.
    private func finish(_ generation: Int, _ outcome: Outcome) {
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
