import Foundation

/// A value guarded by a lock.
///
/// NB: `Synchronization.Mutex` needs macOS 15 / iOS 18; the kit supports macOS 14 / iOS 17,
/// so it keeps this small lock of its own.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
