import ContentLoadingSupport
import Dispatch

/// Writes that wait for another connection's write lock without holding a thread.
///
/// A write transaction begins with `BEGIN IMMEDIATE`, which takes the file's write lock. While
/// another connection holds it (another process, or another `DiskCache` over the file),
/// SQLite's busy timeout sleeps in `BEGIN` for up to ``SQLiteDatabase/busyTimeout``, holding
/// one of the cooperative pool's threads, of which a two-core machine has two: two such writes
/// stopped every other task of the process. Here a write tries the lock without waiting and
/// is suspended between tries, so the actor runs reads meanwhile and the pool runs everything
/// else. Nothing of a write has run until it has the lock; from there its transaction runs to
/// its commit without a suspension, as every write did before.
extension DiskCache {
    /// Runs `body` in one write transaction on the file: committed when it returns, rolled back
    /// when it or the commit throws (the byte total then goes back to what it was, as the
    /// file's rows do). Waits for another connection's write lock without holding a thread, up
    /// to ``SQLiteDatabase/busyTimeout``; this connection's writes that come meanwhile wait
    /// behind it, in order (``writeLock``).
    ///
    /// - Parameter unlessCancelled: Whether a cancelled task writes nothing: checked right
    ///   before the transaction begins, so from the check to the commit the actor runs nothing
    ///   else. Otherwise a write waits for the lock whether or not its task is cancelled.
    /// - Throws: ``SQLiteError`` saying the database is locked when another connection held the
    ///   lock all that time; what `body` or the commit throws; `CancellationError` (nothing
    ///   written) when `unlessCancelled` and the task is cancelled.
    func writeTransaction<T>(
        operation: String, unlessCancelled: Bool = false, _ body: () throws -> T
    ) async throws -> T {
        // NB: taken at once when no write of this connection waits, as the write then does not
        // suspend either: `BEGIN` is tried first without a pause.
        await writeLock.lock()
        defer { writeLock.unlock() }
        try await beginWhenUnlocked(operation: operation, unlessCancelled: unlessCancelled)
        return try committing(operation: operation, body)
    }

    /// Begins a write transaction once no other connection holds the write lock: tried at
    /// once, then after pauses that grow from 1 ms to 50 ms (SQLite's own busy handler waits
    /// from 1 ms to 100 ms), until ``lockTimeout`` (the busy timeout) has passed.
    private func beginWhenUnlocked(operation: String, unlessCancelled: Bool) async throws {
        let end = ContinuousClock.now + lockTimeout
        var pause = Duration.milliseconds(1)
        while true {
            if unlessCancelled, Task.isCancelled { throw CancellationError() }
            guard let locked = try database.beginWriteUnlessLocked(operation: operation) else { return }
            let left = end - ContinuousClock.now
            guard left > .zero else { throw locked }
            await Self.pause(min(pause, left))
            pause = min(pause * 2, .milliseconds(50))
        }
    }

    /// Sets how long a write waits for another connection's lock (``lockTimeout``): tests wait
    /// longer than the busy timeout, on a machine too busy to see a write wait within it, or
    /// less, to see one give up.
    func setLockTimeout(_ timeout: Duration) { lockTimeout = timeout }

    /// Runs `body` in the write transaction begun, then stores the byte total in the file when
    /// `body` changed it (see `DiskCache+ByteTotal.swift`); keeps the byte total (and when it
    /// was measured) when it fails.
    private func committing<T>(operation: String, _ body: () throws -> T) throws -> T {
        let (total, measured) = (totalBytes, totalBytesRead)
        do {
            return try database.commitOrRollBack(operation: operation) {
                let result = try body()
                if (totalBytes, totalBytesRead) != (total, measured) { try storeTotalBytes() }
                return result
            }
        } catch {
            (totalBytes, totalBytesRead) = (total, measured)
            throw error
        }
    }

    /// Waits `duration` without a thread, whether or not the task is cancelled: a write that
    /// was asked for is made.
    private static func pause(_ duration: Duration) async {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().asyncAfter(deadline: .now() + duration.seconds) { continuation.resume() }
        }
    }
}
