/// A one-shot signal that any number of tasks can await.
///
/// ``resolve(_:)`` stores a value and wakes every waiter; later waiters return at once.
/// A waiter whose task is cancelled returns `nil` without waiting.
package final class SettleSignal<Value: Sendable>: Sendable {
    /// How a waiting task goes on.
    private enum Waiter {
        /// A task on the main actor, parked so that its resumption wakes no thread.
        case parked(ParkingSpot)
        /// A task on any other actor, or none.
        case continuation(CheckedContinuation<Value?, Never>)

        /// Lets the task go on; a parked task then reads the signal's value itself.
        func resume(returning value: Value?) {
            switch self {
            case .parked(let spot): spot.release()
            case .continuation(let continuation): continuation.resume(returning: value)
            }
        }
    }

    private struct Storage {
        var value: Value?
        var waiters: [UInt64: Waiter] = [:]
        var nextKey: UInt64 = 0
    }

    private let storage = Locked(Storage())

    package init() {}

    /// Stores `value` and wakes every waiter. Only the first call has an effect.
    package func resolve(_ value: Value) {
        let waiters = storage.withLock { storage -> [Waiter] in
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
    ///   `LoaderOutlets.waitUntilSettled`); leave it to its default. On the main actor the
    ///   waiter parks (see ``ParkingSpot``).
    package func wait(isolation: isolated (any Actor)? = #isolation) async -> Value? {
        let key = storage.withLock { storage in
            defer { storage.nextKey += 1 }
            return storage.nextKey
        }
        return await withTaskCancellationHandler {
            if ParkingSpot.parks(on: isolation) {
                let spot = ParkingSpot()
                if let early = register(.parked(spot), key: key) { return early }
                await spot.wait(isolation: isolation)
                // NB: `nil` when the release was the cancellation's.
                return storage.withLock { $0.value }
            }
            return await withCheckedContinuation(isolation: isolation) { continuation in
                if let early = register(.continuation(continuation), key: key) {
                    continuation.resume(returning: early)
                }
            }
        } onCancel: {
            let waiter = storage.withLock { $0.waiters.removeValue(forKey: key) }
            waiter?.resume(returning: nil)
        }
    }

    /// Adds `waiter`, unless the signal is resolved, which returns the value, or its task is
    /// cancelled, which returns `.some(nil)`.
    private func register(_ waiter: Waiter, key: UInt64) -> Value?? {
        storage.withLock { storage in
            if let value = storage.value { return .some(value) }
            if Task.isCancelled { return .some(nil) }
            storage.waiters[key] = waiter
            return .none
        }
    }
}
