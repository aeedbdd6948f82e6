/// Listeners in the order they were added, each kept until it says it is gone (its owner was
/// freed): a caller runs them from ``current`` and drops those that answer `false` with
/// ``remove(_:)``.
///
/// ```swift
/// let listeners = ListenerList<@Sendable (Change) async -> Bool>()
/// listeners.add { change in await repository?.apply(change) != nil }
/// for (number, listener) in listeners.current where !(await listener(change)) { listeners.remove(number) }
/// ```
package final class ListenerList<Listener: Sendable>: Sendable {
    private let state = Locked<(next: UInt64, all: [(number: UInt64, listener: Listener)])>((0, []))

    package init() {}

    /// Adds `listener` after the others.
    package func add(_ listener: Listener) {
        state.withLock { state in
            state.next += 1
            state.all.append((state.next, listener))
        }
    }

    /// Whether no listener is kept.
    package var isEmpty: Bool { state.withLock { $0.all.isEmpty } }

    /// The listeners now, in the order they were added, each with its number.
    package var current: [(number: UInt64, listener: Listener)] { state.withLock { $0.all } }

    /// Drops listener `number`.
    package func remove(_ number: UInt64) {
        state.withLock { $0.all.removeAll { $0.number == number } }
    }
}
