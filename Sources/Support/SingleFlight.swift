/// Runs at most one operation at a time; callers that arrive while it runs share its result.
///
/// The operation runs for as long as someone waits for it: a caller whose task is cancelled
/// stops waiting at once (it gets `CancellationError`), and when the last waiting caller has
/// gone the operation's task is cancelled and let go, so a caller that comes after starts a
/// new one. An operation can commit itself (``Commit``) before a step that must not be cut
/// short, such as storing what it fetched: from then on it is not let go, and stays the one in
/// flight until it ends. The state is changed under one lock, so two callers can never start
/// two operations.
///
/// A committed operation has its result in hand, and what it tells others (a value it stores
/// and hands on) may come before it ends. A caller that needs a result asked for after it came
/// (`needsNewResult`, a refresh) does not join it: it waits for it to end, then shares the next
/// operation. So a caller started on hearing what an operation stored starts a new one.
///
/// A step given at ``init(ended:)`` runs after each operation has ended and can no longer be
/// joined, before its callers resume, and before the next operation starts. So what it tells
/// others (a failure event) reaches them in order: a caller they start on hearing it starts a
/// new operation, whose results come after it.
package final class SingleFlight<Value: Sendable>: Sendable {
    private struct State {
        /// The operation in flight, and which one it is.
        var task: Task<Void, Never>?
        var generation: UInt64 = 0
        /// Whether the operation in flight has committed itself: it is not let go any more.
        var isCommitted = false
        /// The callers waiting for its value, by key.
        var callers: [UInt64: CheckedContinuation<Value, any Error>] = [:]
        /// The waits for it to end, by key (while one ends, the waits for the next one).
        var idleWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextKey: UInt64 = 0
        /// How many operations let go are being cancelled (their task's `cancel()` not yet
        /// returned): they still count as in flight.
        var beingCancelled = 0
        /// Whether the operation that ended last is ending (its `ended` step runs): a caller
        /// that comes meanwhile waits for the next operation, which starts once it has ended.
        var isEnding = false
        /// The callers waiting for the next operation, in the order they came: those that came
        /// while the last one was ending, and those that need a new result and came once the
        /// one in flight had committed.
        var queued: [Queued] = []

        var hasWaiters: Bool { !callers.isEmpty || !idleWaiters.isEmpty }
    }

    /// A caller waiting for the next operation, with the operation it asked for.
    private struct Queued {
        let key: UInt64
        let continuation: CheckedContinuation<Value, any Error>
        let operation: @Sendable (Commit) async -> Value
        let needsNewResult: Bool
    }

    private let state = Locked(State())
    private let ended: (@Sendable (Value) async -> Void)?

    /// - Parameter ended: Runs with each operation's value once it has ended, after it has
    ///   stopped being the one in flight, before its callers resume and before the next one
    ///   starts; not for an operation let go (nobody waits for its value). `nil` for none.
    package init(ended: (@Sendable (Value) async -> Void)? = nil) {
        self.ended = ended
    }

    /// The value of the operation in flight, or of `operation` started now when none is.
    ///
    /// - Throws: `CancellationError` when the caller's task is cancelled (the operation goes on
    ///   while others wait for it).
    package func run(_ operation: @escaping @Sendable () async -> Value) async throws -> Value {
        try await run { _ in await operation() }
    }

    /// The value of the operation in flight, or of `operation` started now when none is;
    /// `operation` is given the ``Commit`` that ends its cancellation.
    ///
    /// - Parameter needsNewResult: Whether the caller needs a result asked for after it came:
    ///   then, once the operation in flight has committed (its result is in hand), it waits for
    ///   that one to end and shares the next. `false` joins any operation in flight.
    /// - Throws: `CancellationError` when the caller's task is cancelled (the operation goes on
    ///   while others wait for it, or once it has committed).
    package func run(needsNewResult: Bool = false, _ operation: @escaping @Sendable (Commit) async -> Value)
        async throws -> Value
    {
        let key = newKey()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let registered = state.withLock { state -> Bool in
                    // NB: checked under the lock the handler takes: a cancellation before the
                    // caller was registered is seen here, one after finds it registered.
                    guard !Task.isCancelled else { return false }
                    if state.isEnding || (needsNewResult && state.isCommitted) {
                        state.queued.append(
                            Queued(
                                key: key, continuation: continuation, operation: operation,
                                needsNewResult: needsNewResult))
                    } else {
                        state.callers[key] = continuation
                        if state.task == nil { start(operation, in: &state) }
                    }
                    return true
                }
                if !registered { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            leave(key)
        }
    }

    /// Waits until the operation in flight, if any, has ended; starts none. The wait counts
    /// as waiting for it (it is not cancelled while this waits); a cancelled wait returns at once.
    ///
    /// A wait that comes while an operation is ending waits for its `ended` step, and then for
    /// the next operation when callers queued meanwhile start one: what the step tells (a
    /// failure) has reached its listeners when the wait returns, as for a wait that came before.
    package func waitUntilIdle() async {
        let key = newKey()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let registered = state.withLock { state -> Bool in
                    // NB: while the last operation ends, the wait is kept for the next one, and
                    // let go when none starts (see `finish`).
                    guard !Task.isCancelled, state.task != nil || state.isEnding else { return false }
                    state.idleWaiters[key] = continuation
                    return true
                }
                if !registered { continuation.resume() }
            }
        } onCancel: {
            leave(key)
        }
    }

    /// How many callers are waiting for the operation in flight or for the next one (for tests
    /// that must know every caller came before letting it finish).
    package var waitingCallers: Int { state.withLock { $0.callers.count + $0.queued.count } }

    /// How many waits for the end of the operation in flight are registered (for tests).
    package var waitingForEnd: Int { state.withLock { $0.idleWaiters.count } }

    /// Whether an operation is in flight: one that was let go counts until its task is
    /// cancelled, so a caller that sees `false` knows no let-go operation will start another
    /// step uncancelled.
    package var isRunning: Bool { state.withLock { $0.task != nil || $0.beingCancelled > 0 } }

    /// A key for a new caller or wait.
    private func newKey() -> UInt64 {
        state.withLock { state in
            state.nextKey += 1
            return state.nextKey
        }
    }

    /// Starts `operation` as the one in flight; under the lock.
    private func start(_ operation: @escaping @Sendable (Commit) async -> Value, in state: inout State) {
        state.generation += 1
        state.isCommitted = false
        let generation = state.generation
        state.task = Task { [self] in
            let value = await operation(Commit(flight: self, generation: generation))
            await finish(generation, with: value)
        }
    }

    /// Ends operation `generation`, unless it was let go: it stops being the one in flight,
    /// the `ended` step runs, the next operation starts for the callers queued meanwhile, and
    /// everyone who waited for the one that ended gets its value.
    private func finish(_ generation: UInt64, with value: Value) async {
        let waiters = state.withLock { state -> State? in
            guard state.generation == generation, state.task != nil else { return nil }
            defer {
                state.task = nil
                state.isCommitted = false
                state.callers = [:]
                state.idleWaiters = [:]
                state.isEnding = true
            }
            return state
        }
        guard let waiters else { return }
        await ended?(value)
        let idleNow = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isEnding = false
            // NB: its callers may all have left meanwhile; then nothing starts. The operation is
            // that of the first caller that needs a new result (another's may take one in hand).
            let queued = state.queued
            state.queued = []
            guard let next = queued.first(where: \.needsNewResult) ?? queued.first else {
                // NB: the waits that came while it ended; with no next operation, they are over.
                defer { state.idleWaiters = [:] }
                return Array(state.idleWaiters.values)
            }
            for caller in queued { state.callers[caller.key] = caller.continuation }
            start(next.operation, in: &state)
            return []
        }
        for caller in waiters.callers.values { caller.resume(returning: value) }
        for waiter in waiters.idleWaiters.values + idleNow { waiter.resume() }
    }

    /// A cancelled caller (or wait) stops waiting; when nobody waits any more, the operation
    /// is cancelled and let go.
    private func leave(_ key: UInt64) {
        let (caller, waiter, abandoned) = state.withLock { state in
            var caller = state.callers.removeValue(forKey: key)
            if let index = state.queued.firstIndex(where: { $0.key == key }) {
                caller = state.queued.remove(at: index).continuation
            }
            let waiter = state.idleWaiters.removeValue(forKey: key)
            guard caller != nil || waiter != nil, !state.hasWaiters, !state.isCommitted, let task = state.task else {
                return (caller, waiter, Task<Void, Never>?.none)
            }
            state.task = nil
            state.beingCancelled += 1
            return (caller, waiter, task)
        }
        // NB: cancelled outside the lock (its cancellation handlers may take others), and before
        // the caller hears it left: a caller that did sees the operation cancelled and not running.
        if let abandoned {
            abandoned.cancel()
            state.withLock { $0.beingCancelled -= 1 }
        }
        caller?.resume(throwing: CancellationError())
        waiter?.resume()
    }
}

extension SingleFlight {
    /// What an operation calls before a step that must not be cut short: it throws
    /// `CancellationError` when the operation was let go (nobody waits for it any more);
    /// otherwise the operation is committed, is never let go, and stays the one in flight,
    /// which callers join and waits wait for, until it ends.
    package struct Commit: Sendable {
        fileprivate let flight: SingleFlight
        fileprivate let generation: UInt64

        package func callAsFunction() throws {
            // NB: under the lock `leave` lets go under: the operation is either let go before
            // this (and stops) or committed before any later `leave` (and finishes).
            let committed = flight.state.withLock { state -> Bool in
                guard state.generation == generation, state.task != nil else { return false }
                state.isCommitted = true
                return true
            }
            if !committed { throw CancellationError() }
        }
    }
}

extension Result where Failure == any Error {
    /// The result of `body`, success or failure.
    package init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
