import Dispatch

/// A serial executor that runs its jobs on a dispatch queue of its own, off Swift's
/// cooperative pool: for an actor whose work may block its thread (SQLite waiting out another
/// connection's lock, up to its busy timeout).
///
/// The cooperative pool has a thread per core, two on a small machine: a job that blocks one
/// stalls every task queued behind it, in the whole process. A dispatch queue's thread comes
/// from Dispatch's own pool, which starts another thread when one blocks.
///
/// ```swift
/// actor Files {
///     private let executor = DispatchQueueExecutor(label: "files")
///     nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
/// }
/// ```
package final class DispatchQueueExecutor: SerialExecutor {
    private let queue: DispatchQueue

    /// An executor on a new serial queue named `label`.
    package init(label: String) { queue = DispatchQueue(label: label) }

    /// Runs `job` on the queue, after the jobs enqueued before it.
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { [self] in job.runSynchronously(on: asUnownedSerialExecutor()) }
    }
}
