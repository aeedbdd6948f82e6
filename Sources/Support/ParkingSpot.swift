import Dispatch

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
#if compiler(>=6.3)
    @_spi(ExperimentalCustomExecutors) import _Concurrency
#endif

/// A place where a task waiting on the main actor parks until it is released, so that its
/// resumption wakes no thread.
///
/// A continuation resumes its task on the global executor, and a task waiting on the main
/// actor then hops back to it: two thread hand-offs, which cost more than the rest of an
/// awaited refresh. ``wait(isolation:)`` instead moves the task onto an actor whose executor
/// is the spot, which keeps the task's job rather than running it; ``release()`` gives the job
/// to the main queue. Released from main-actor code (a load settling), the thread already
/// draining the queue runs the job, and the task's hop back to the main actor is queued behind
/// it on the same thread.
///
/// ```swift
/// let spot = ParkingSpot()
/// // on the main actor:
/// await spot.wait()
/// // anywhere, exactly once per wait:
/// spot.release()
/// ```
///
/// Release a spot exactly once per wait; a spot released before its task parks lets the task
/// through at once. One task waits at a time; once its wait has returned, the spot can be
/// used again. What the task goes on with is the caller's to hand over.
///
/// It relies on the main actor's executor being the main dispatch queue, as it is by default
/// on Apple platforms and on Linux. A program can give the main actor an executor of its own
/// (an `ExecutorFactory`, or the runtime's main-executor hooks, as WebAssembly runtimes do),
/// which need not drain that queue, and a parked task would then wait for ever: check
/// ``isAvailable`` before parking, and take a continuation when it is `false`.
@usableFromInline package final class ParkingSpot: SerialExecutor, @unchecked Sendable {
    private struct State {
        var job: UnownedJob?
        var isReleased = false
    }

    // NB: @unchecked: `state` is only read and written under its lock, `lot` is set once, in
    // `init`, and `scheduled` is handed over through the main queue (see `schedule(_:)`).
    private let state = Locked(State())
    @usableFromInline var lot: ParkingLot!
    private var scheduled: UnownedJob?

    @usableFromInline package init() {
        lot = ParkingLot(executor: asUnownedSerialExecutor())
    }

    /// Whether tasks on the main actor can park: the main actor's executor is the main dispatch
    /// queue. Worked out once, on first use.
    @usableFromInline package static let isAvailable = mainExecutorIsMainQueue()

    /// Whether a task waiting on `isolation` parks: it waits on the main actor, and tasks can
    /// park there (``isAvailable``). The one rule every waiter that parks follows.
    @usableFromInline package static func parks(on isolation: (any Actor)?) -> Bool {
        isolation === mainActor && isAvailable
    }

    /// Parks the calling task until ``release()``.
    ///
    /// - Parameter isolation: The caller's actor; the task returns to it through the main
    ///   queue, so use the spot from the main actor only.
    @usableFromInline package func wait(isolation: isolated (any Actor)? = #isolation) async {
        // NB: the task goes on only from `schedule(_:)`, which runs it after its release.
        await lot.park()
    }

    /// Lets the parked task (or the task still on its way) through.
    @usableFromInline package func release() {
        let parked = state.withLock { state in
            guard let job = state.job else {
                state.isReleased = true
                return UnownedJob?.none
            }
            state = State()  // NB: ready for the next wait.
            return job
        }
        if let parked { schedule(parked) }
    }

    /// Keeps the job of the parking task until the release, or has it run at once after it.
    @usableFromInline package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let isReleased = state.withLock { state in
            guard state.isReleased else {
                state.job = job
                return false
            }
            state = State()  // NB: ready for the next wait.
            return true
        }
        if isReleased { schedule(job) }
    }

    /// The main queue, looked up once (on Linux each `DispatchQueue.main` is a new object).
    private static let mainQueue = DispatchQueue.main

    /// Has the main queue run `job`, the parked task's.
    ///
    /// NB: the block captures only the spot, which then is its context: capturing the job too
    /// would allocate a context on every release. The job waits in `scheduled` instead, which
    /// needs no lock: it is written before the block is queued and read by the block, and the
    /// next wait, the only other writer, starts only after the block has run the job.
    private func schedule(_ job: UnownedJob) {
        scheduled = job
        Self.mainQueue.async { [self] in
            guard let job = scheduled else { preconditionFailure("a parking spot ran without a parked job") }
            scheduled = nil
            job.runSynchronously(on: asUnownedSerialExecutor())
        }
    }
}

/// Whether the main actor's executor is the one the runtime starts with, which drains the main
/// dispatch queue: no runtime hook replaces it and no `ExecutorFactory` made another.
private func mainExecutorIsMainQueue() -> Bool {
    // NB: the hooks are how a program replaced the main executor before Swift 6.2 (and how
    // some still do); each is a global pointer that is null unless set.
    #if canImport(Darwin)
        let everyImage = UnsafeMutableRawPointer(bitPattern: -2)  // NB: RTLD_DEFAULT
    #else
        let everyImage: UnsafeMutableRawPointer? = nil  // NB: RTLD_DEFAULT
    #endif
    for hook in ["swift_task_enqueueMainExecutor_hook", "swift_task_getMainExecutor_hook"] {
        if let address = dlsym(everyImage, hook), address.load(as: UnsafeRawPointer?.self) != nil {
            return false
        }
    }
    #if compiler(>=6.3)
        if #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) {
            // NB: the default main executor's type is internal to the runtime, so it is told by
            // its name; an executor of any other type may not drain the main queue.
            return String(describing: type(of: MainActor.executor)) == "DispatchMainExecutor"
        }
    #endif
    return true
}

/// The main actor, looked up once: `MainActor.shared` is a call that retains it, which showed
/// in the profile of an awaited refresh, where it tells a main-actor waiter from the others.
@usableFromInline package let mainActor = MainActor.shared

/// The actor a parking task moves onto: its executor is the ``ParkingSpot``.
@usableFromInline actor ParkingLot {
    @usableFromInline nonisolated let unownedExecutor: UnownedSerialExecutor
    /// How many tasks went through.
    private var passed = 0

    init(executor: UnownedSerialExecutor) { unownedExecutor = executor }

    /// Runs only once the spot has let the task through.
    ///
    /// NB: it writes the actor's state so that the move onto the actor is needed: the
    /// optimizer drops the executor hop of an isolated function that touches nothing isolated,
    /// and the task would then not park at all.
    @usableFromInline func park() { passed &+= 1 }
}
