import Foundation

/// A value guarded by a lock.
///
/// NB: `Synchronization.Mutex` needs macOS 15 / iOS 18; the kit supports macOS 14 / iOS 17,
/// so it keeps this small lock of its own.
///
/// NB: not `@inlinable` and with exclusivity checked: neither bought 10% of any benchmark
/// scenario (issue 25, Benchmarks/README.md "Unchecked constructs").
@usableFromInline package final class Locked<Value>: @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    @usableFromInline var value: Value

    @usableFromInline package init(_ value: Value) { self.value = value }

    @usableFromInline package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
