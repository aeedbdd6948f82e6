import Dispatch

/// A place where one task waiting on the main actor parks until its value arrives, so that its
/// resumption wakes no thread.
///
/// A continuation resumes its task on the global executor, and a task waiting on the main
/// actor then hops back to it: two thread hand-offs, which cost more than the rest of an
/// awaited refresh. ``wait(isolation:)`` instead moves the task onto an actor whose executor
/// is the spot, which keeps the task's job rather than running it; ``release(with:)`` gives the job to
/// the main queue, where the thread already draining the queue runs it, and the task hops
/// back to the main actor behind it on the same thread.
///
/// ```swift
/// let spot = ParkingSpot<Int>()
/// // on the main actor:
/// let value = await spot.wait()
/// // anywhere, exactly once:
/// spot.release(with: 42)
/// ```
///
/// Release a spot exactly once; a spot released before its task parks lets the task through
/// at once. A spot is for one wait.
@usableFromInline package final class ParkingSpot<Value: Sendable>: SerialExecutor, @unchecked Sendable {
    private struct State {
        var job: UnownedJob?
        var value: Value?
    }

    // NB: @unchecked: `state` is only read and written under its lock, and `lot` is set once,
    // in `init`.
    private let state = Locked(State())
    private var lot: ParkingLot!

    @usableFromInline package init() {
        lot = ParkingLot(executor: asUnownedSerialExecutor())
    }

    /// Parks the calling task until ``release(with:)`` and returns the value it was given.
    ///
    /// - Parameter isolation: The caller's actor; the task returns to it through the main
    ///   queue, so use the spot from the main actor only.
    @usableFromInline package func wait(isolation: isolated (any Actor)? = #isolation) async -> Value {
        await lot.park()
        return state.withLock { state in
            guard let value = state.value else { preconditionFailure("a parked task went on before its release") }
            return value
        }
    }

    /// Gives the parked task (or the task still on its way) `value`, and lets it through.
    @usableFromInline package func release(with value: Value) {
        let job = state.withLock { state in
            state.value = value
            defer { state.job = nil }
            return state.job
        }
        if let job { run(job) }
    }

    /// Keeps the job of the parking task until the release, or runs it at once after it.
    @usableFromInline package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let isReleased = state.withLock { state in
            guard state.value == nil else { return true }
            state.job = job
            return false
        }
        if isReleased { run(job) }
    }

    private func run(_ job: UnownedJob) {
        let executor = asUnownedSerialExecutor()
        DispatchQueue.main.async { job.runSynchronously(on: executor) }
    }
}

/// The actor a parking task moves onto: its executor is the ``ParkingSpot``.
private actor ParkingLot {
    nonisolated let unownedExecutor: UnownedSerialExecutor

    init(executor: UnownedSerialExecutor) { unownedExecutor = executor }

    /// How many tasks went through; one, for the one wait of a spot.
    private var passed = 0

    /// Runs only once the spot has let the task through.
    ///
    /// NB: it writes the actor's state so that the move onto the actor is needed: the
    /// optimizer drops the executor hop of an isolated function that touches nothing isolated,
    /// and the task would then not park at all.
    func park() { passed += 1 }
}
