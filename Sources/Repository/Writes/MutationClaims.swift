import ContentLoadingSupport

/// Which pending mutations of one element type in one ``DiskCache`` are being sent, cancelled
/// or held for the app, and by which outbox. Every ``Outbox`` over the connection asks here, so
/// two outboxes over one store (or over two stores of one type on one connection) never send a
/// mutation twice, nor one that the other holds as a conflict, and keep each chain in order.
///
/// An outbox turned away from a mutation (another has it) is woken when that one is let go:
/// its queue runs again, so the mutations behind it are not left waiting for another trigger.
final class MutationClaims: Sendable {
    /// What ``claim(_:for:)`` found.
    enum Claim: Equatable {
        /// The mutation is the caller's until it is released or retired.
        case claimed
        /// Another call has it (being sent, cancelled or held for the app): the caller is woken
        /// when it is let go.
        case taken
        /// It left the queue (settled, cancelled or set aside) after the caller's run read it:
        /// it is no longer pending, and the run skips it.
        case retired
    }

    /// An outbox: its identity, and what wakes its queue.
    struct Owner: Sendable {
        let id: ObjectIdentifier
        let wake: @Sendable () -> Void
    }

    private struct State {
        var claimed: Set<Int> = []
        /// A count of the runs begun and the mutations retired, which orders the two.
        var clock = 0
        /// The runs of the queues that read the pending mutations and have not ended, by when
        /// each began.
        var runs: Set<Int> = []
        /// The mutations that left the queue while a run that began before was going: when each left.
        var retired: [Int: Int] = [:]
        /// The last mutation a purge removed (every one up to it went), and when.
        var retiredThrough: (sequence: Int, clock: Int)?
        /// The conflicts held for the app, by sequence: the outbox that holds each.
        var held: [Int: ObjectIdentifier] = [:]
        /// The outboxes turned away since the last mutation was let go.
        var turnedAway: [ObjectIdentifier: Owner] = [:]
        /// The calls waiting for a claimed mutation to be let go, by sequence.
        var letGoWaiters: [Int: [CheckedContinuation<Bool, Never>]] = [:]
        /// How many purges are going: while one is, nothing is claimed.
        var purges = 0
        /// The purges waiting for every claimed mutation to be let go.
        var purgeWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// Claims mutation `sequence` for `owner`: free and not held by another outbox.
    func claim(_ sequence: Int, for owner: Owner) -> Claim {
        state.withLock { state in
            if state.retired[sequence] != nil || sequence <= state.retiredThrough?.sequence ?? -1 { return .retired }
            let heldByAnother = state.held[sequence].map { $0 != owner.id } ?? false
            guard state.purges == 0, !heldByAnother, state.claimed.insert(sequence).inserted else {
                state.turnedAway[owner.id] = owner
                return .taken
            }
            return .claimed
        }
    }

    /// Lets go of mutation `sequence` (sent, settled or kept for a later run).
    func release(_ sequence: Int) {
        wakeTurnedAway(lettingGo: sequence) { $0.claimed.remove(sequence) }
    }

    /// Waits until mutation `sequence`, claimed now, is let go (released or retired); `false`,
    /// at once, when it is not claimed.
    func letGo(_ sequence: Int) async -> Bool {
        await withCheckedContinuation { continuation in
            let isClaimed = state.withLock { state -> Bool in
                guard state.claimed.contains(sequence) else { return false }
                state.letGoWaiters[sequence, default: []].append(continuation)
                return true
            }
            if !isClaimed { continuation.resume(returning: false) }
        }
    }

    /// Marks mutation `sequence` as gone from the queue (settled, cancelled or set aside): a run
    /// that read it before skips it. Remembered only while such a run goes.
    func retire(_ sequence: Int) {
        wakeTurnedAway(lettingGo: sequence) { state in
            state.claimed.remove(sequence)
            guard !state.runs.isEmpty else { return }
            state.clock += 1
            state.retired[sequence] = state.clock
        }
    }

    /// Marks every mutation up to `sequence` as gone from the queue (a purge removed them), as
    /// ``retire(_:)`` does one.
    func retire(through sequence: Int) {
        state.withLock { state in
            guard !state.runs.isEmpty else { return }
            state.clock += 1
            state.retiredThrough = (max(sequence, state.retiredThrough?.sequence ?? sequence), state.clock)
        }
    }

    /// Begins a run of a queue, before it reads the pending mutations; returns what ends it.
    func beginRun() -> Int {
        state.withLock { state in
            state.clock += 1
            state.runs.insert(state.clock)
            return state.clock
        }
    }

    /// Ends the run `run`: the mutations that left the queue before every run still going
    /// began are forgotten (those runs read the file after they left).
    func endRun(_ run: Int) {
        state.withLock { state in
            state.runs.remove(run)
            let oldest = state.runs.min() ?? .max
            state.retired = state.retired.filter { $0.value > oldest }
            if let through = state.retiredThrough, through.clock <= oldest { state.retiredThrough = nil }
        }
    }

    /// Begins a purge (an outbox emptying the queue): from now on nothing is claimed, and this
    /// returns once every mutation claimed is let go (its send answered).
    func beginPurge() async {
        await withCheckedContinuation { continuation in
            let isIdle = state.withLock { state -> Bool in
                state.purges += 1
                guard !state.claimed.isEmpty else { return true }
                state.purgeWaiters.append(continuation)
                return false
            }
            if isIdle { continuation.resume() }
        }
    }

    /// Ends a purge: the outboxes turned away meanwhile run their queues again.
    func endPurge() {
        wakeTurnedAway { $0.purges -= 1 }
    }

    /// Whether a purge is going (for tests).
    var isPurging: Bool { state.withLock { $0.purges > 0 } }
    /// How many retired mutations are remembered (for tests).
    var retiredCount: Int { state.withLock { $0.retired.count } }
    /// How many calls wait for mutation `sequence` to be let go (for tests).
    func letGoWaiterCount(_ sequence: Int) -> Int { state.withLock { $0.letGoWaiters[sequence]?.count ?? 0 } }

    /// Marks mutation `sequence` as a conflict `owner` holds for its app: no other outbox claims it.
    func hold(_ sequence: Int, for owner: ObjectIdentifier) {
        state.withLock { $0.held[sequence] = owner }
    }

    /// Ends the holds of `sequences` (resolved, cancelled or purged).
    func endHolds(_ sequences: some Sequence<Int>) {
        wakeTurnedAway { state in
            for sequence in sequences { state.held.removeValue(forKey: sequence) }
        }
    }

    /// Changes the state as `change` says, then (outside the lock) resumes the calls waiting for
    /// mutation `sequence` to be let go, and wakes the outboxes turned away.
    private func wakeTurnedAway(lettingGo sequence: Int? = nil, after change: (inout State) -> Void) {
        let (waiters, purges, woken) = state.withLock { state in
            change(&state)
            let waiters = sequence.flatMap { state.letGoWaiters.removeValue(forKey: $0) } ?? []
            var purges: [CheckedContinuation<Void, Never>] = []
            if state.claimed.isEmpty { swap(&purges, &state.purgeWaiters) }
            defer { state.turnedAway = [:] }
            return (waiters, purges, Array(state.turnedAway.values))
        }
        for waiter in waiters { waiter.resume(returning: true) }
        for purge in purges { purge.resume() }
        for owner in woken { owner.wake() }
    }
}
