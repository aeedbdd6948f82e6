import Dispatch
import Foundation
import Observation

/// Scenario 1, a hand-written baseline that hands no thread over: the waiter parks its
/// task on a custom executor, and the refresh's task releases it onto the main queue.
///
/// A continuation (or `Task.value`) resumes its task on the global executor, which then hops
/// back to the main actor: two thread hand-offs a cycle. Here the waiting task switches to
/// ``Parking``'s executor, which keeps the task's job instead of running it; the refresh's task,
/// on the main actor, gives the job to the main queue, where the thread already draining it
/// runs it and the task hops back to the main actor behind it, on the same thread. One waiter
/// at a time; the waiter is not cancellable.
@MainActor
@Observable
public final class ParkingRefresher {
    /// The last value assigned.
    public private(set) var value: Int?
    @ObservationIgnored private var task: Task<Void, Never>?
    @ObservationIgnored private var isLoading = false
    @ObservationIgnored private let parking = Parking()

    /// A refresher with nothing loaded.
    public init() {}

    /// Starts a task that awaits the instant loader, assigns the result and releases the waiter.
    public func refresh(_ input: Int) {
        task?.cancel()
        isLoading = true
        parking.gate.close()
        task = Task {
            let result = await instantLoad(input)
            guard !Task.isCancelled else { return }
            value = result
            isLoading = false
            parking.gate.open()
        }
    }

    /// Waits until the running refresh has assigned its result.
    public func settled() async {
        guard isLoading else { return }
        await parking.park()
    }

    /// Refresh → settled.
    public func cycle(_ input: Int) async {
        refresh(input)
        await settled()
    }
}

/// An actor whose executor is a ``Gate``: calling ``park()`` parks the caller until the gate
/// opens.
actor Parking {
    nonisolated let gate = Gate()

    nonisolated var unownedExecutor: UnownedSerialExecutor { gate.asUnownedSerialExecutor() }

    /// How many times a caller passed the gate. ``park()`` writes it: an isolated function
    /// that touches nothing loses its hop onto the actor in an optimised build, and the caller
    /// would return without waiting.
    private var passed = 0

    /// Returns once the gate is open.
    func park() { passed &+= 1 }
}

/// An executor that keeps the job it is given while closed, and gives it to the main queue
/// when it opens (or at once when open).
final class Gate: SerialExecutor, @unchecked Sendable {
    // NB: @unchecked: both fields are guarded by `lock`.
    private let lock = NSLock()
    private var parked: UnownedJob?
    private var isOpen = true

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        lock.lock()
        guard isOpen else {
            parked = job
            lock.unlock()
            return
        }
        lock.unlock()
        run(job)
    }

    func close() {
        lock.lock()
        isOpen = false
        lock.unlock()
    }

    func open() {
        lock.lock()
        isOpen = true
        let job = parked
        parked = nil
        lock.unlock()
        if let job { run(job) }
    }

    private func run(_ job: UnownedJob) {
        let executor = asUnownedSerialExecutor()
        DispatchQueue.main.async { job.runSynchronously(on: executor) }
    }
}
