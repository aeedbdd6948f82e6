import ContentLoadingRepository
import ContentLoadingSupport
import Foundation

/// Makes `write` run once, when the first write of a key ending with `suffix` begins on
/// `disk` (before its transaction): between the moment an update or a patch read the
/// value from memory and its own write. Returns whether it ran.
func interpose(
    on disk: DiskCache, beforeTheWriteOf suffix: String, _ write: @escaping @Sendable () async throws -> Void
) async -> Locked<Bool> {
    let ran = Locked(false)
    await disk.setWriteFault { key in
        guard key.hasSuffix(suffix), !ran.withLock({ $0 }) else { return }
        ran.withLock { $0 = true }
        try await write()
    }
    return ran
}
