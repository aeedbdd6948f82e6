/// A one-shot signal that any number of tasks can await.
///
/// ``resolve(_:)`` stores a value and wakes every waiter; later waiters return at once.
/// A waiter whose task is cancelled returns `nil` without waiting.
package final class SettleSignal<Value: Sendable>: Sendable {
    private struct Storage {
        var value: Value?
        var waiters: [UInt64: CheckedContinuation<Value?, Never>] = [:]
        var nextKey: UInt64 = 0
    }

    private let storage = Locked(Storage())

    package init() {}

    /// Stores `value` and wakes every waiter. Only the first call has an effect.
    package func resolve(_ value: Value) {
        let waiters = storage.withLock { storage -> [CheckedContinuation<Value?, Never>] in
            guard storage.value == nil else { return [] }
            storage.value = value
            defer { storage.waiters = [:] }
            return Array(storage.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: value) }
    }

    /// Whether ``resolve(_:)`` has been called.
    package var isResolved: Bool { storage.withLock { $0.value != nil } }

    /// Waits for the value; `nil` when the waiting task is cancelled first.
    ///
    /// - Parameter isolation: The caller's actor, on which the waiter is registered (see
    ///   `LoaderOutlets.waitUntilSettled`); leave it to its default.
    package func wait(isolation: isolated (any Actor)? = #isolation) async -> Value? {
        let key = storage.withLock { storage in
            defer { storage.nextKey += 1 }
            return storage.nextKey
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation(isolation: isolation) { continuation in
                let early: Value?? = storage.withLock { storage in
                    if let value = storage.value { return .some(value) }
                    if Task.isCancelled { return .some(nil) }
                    storage.waiters[key] = continuation
                    return .none
                }
                if let early { continuation.resume(returning: early) }
            }
        } onCancel: {
            let waiter = storage.withLock { $0.waiters.removeValue(forKey: key) }
            waiter?.resume(returning: nil)
        }
    }
}
