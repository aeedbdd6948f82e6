import Foundation

/// A value guarded by a lock.
///
/// NB: `Synchronization.Mutex` needs macOS 15 / iOS 18; the kit supports macOS 14 / iOS 17,
/// so it keeps this small lock of its own.
///
/// NB: `@inlinable`, so callers in the kit's other modules get a specialised copy instead of
/// generic dispatch on every call (profiling showed the metadata look-ups in refresh cycles).
@usableFromInline package final class Locked<Value>: @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    // NB: unchecked: every access is inside `withLock`, under the lock, so two accesses
    // never overlap (an access nested in another would first deadlock on the lock); the
    // run-time check was a measurable part of a refresh cycle (Benchmarks/README.md).
    @exclusivity(unchecked) @usableFromInline var value: Value

    @inlinable package init(_ value: Value) { self.value = value }

    @inlinable package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
