import ContentLoadingRepository
import ContentLoadingSupport
import Foundation

/// Holds the next disk write of a ``DiskCache`` until the test releases it: the write waits
/// before it changes anything (the disk tier answers reads meanwhile), so a test can act while
/// a write is under way. As a real write, a held one does not stop when its task is cancelled.
/// Released with an error, the held write fails with it and changes nothing.
final class DiskHold: Sendable {
    private let reached = SettleSignal<Void>()
    private let gate = Locked<
        (isReleased: Bool, writer: CheckedContinuation<Void, Never>?, failure: (any Error)?)
    >((false, nil, nil))

    /// Holds the next write of `disk` (and only that one).
    init(_ disk: DiskCache) async {
        let once = Locked(false)
        await disk.setWriteFault { [reached, gate] _ in
            let first = once.withLock { held in
                defer { held = true }
                return !held
            }
            guard first else { return }
            reached.resolve(())
            await withCheckedContinuation { writer in
                let isReleased = gate.withLock { gate in
                    if !gate.isReleased { gate.writer = writer }
                    return gate.isReleased
                }
                if isReleased { writer.resume() }
            }
            if let failure = gate.withLock({ $0.failure }) { throw failure }
        }
    }

    /// Returns when a write is held.
    func writeReached() async { _ = await reached.wait() }

    /// Lets the held write go on, or fail with `failure`.
    func release(failing failure: (any Error)? = nil) {
        let writer = gate.withLock { gate in
            gate.isReleased = true
            gate.failure = failure
            defer { gate.writer = nil }
            return gate.writer
        }
        writer?.resume()
    }
}
