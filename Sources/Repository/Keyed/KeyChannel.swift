import ContentLoadingSupport
import Foundation

/// What one key of a ``KeyedRepository`` shares between its readers, its writers and its
/// fetch: the readers' broadcast, the single flight, the lock its writes take, and the version
/// of its last write.
final class KeyChannel<Value: Sendable>: Sendable {
    /// A write or a failure, as every reader of the key receives it.
    enum Delivery: Sendable {
        case value(Value, origin: CacheOrigin, writtenAt: Date, version: UInt64)
        case removed(version: UInt64)
        /// A fetch found the value unchanged: its age starts again at `writtenAt`.
        case confirmed(Value, writtenAt: Date, version: UInt64)
        case failure(any Error)
    }

    let readers = Broadcast<Delivery>()
    let flight = SingleFlight<SyncOutcome>()
    /// Held by every write of the key (save, removal, element patch, a fetch's result) from
    /// its claim to its delivery, so writes reach memory, disk and readers in version order and
    /// a patch reads the list it writes back.
    let writes = AsyncLock()
    private let written = Locked(UInt64(0))
    /// The value of the last write in this process, kept only by a repository that compares
    /// values (one over a ``LocalStore``), to tell its own writes from others' in the store.
    let lastWritten = Locked<Value?>(nil)

    /// The version of the last write (or removal) of the key in this process.
    var writtenVersion: UInt64 { written.withLock { $0 } }

    /// Records a write at `version` when no write came after `seen` (the version a fetch saw
    /// when it started); `false` when one did, and the fetch must not overwrite it.
    func claim(_ version: UInt64, ifUnwrittenSince seen: UInt64?) -> Bool {
        written.withLock { written in
            if let seen, written > seen { return false }
            written = max(written, version)
            return true
        }
    }
}
