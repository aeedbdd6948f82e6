import Foundation

/// A thread-safe counter.
public final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// A counter at zero.
    public init() {}

    /// Adds one.
    public func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    /// The count now.
    public var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}

/// A value behind a lock (the kit's own lock type is internal to it).
public final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// A lock around `value`.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` on the value, holding the lock.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
