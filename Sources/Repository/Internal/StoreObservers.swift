import ContentLoadingSupport

/// The observers of a store: each gets the current elements first, then every change.
///
/// Owned by a store actor, which calls it inside its own serial execution, so a subscription
/// and a write never interleave.
final class StoreObservers<Element: Sendable & Equatable>: Sendable {
    private let broadcast = Broadcast<[Element]>()
    private let last = Locked<[Element]?>(nil)

    /// Whether anyone is observing (a store can skip re-reading when not).
    var isObserved: Bool { broadcast.subscriberCount > 0 }

    /// A stream that starts with `current`.
    func subscribe(current: [Element]) -> AsyncStream<[Element]> {
        last.withLock { $0 = current }
        return broadcast.subscribe(initial: current)
    }

    /// Tells every observer about `elements`, unless they are what was last told.
    func publish(_ elements: [Element]) {
        let changed = last.withLock { last in
            defer { last = elements }
            return last != elements
        }
        if changed { broadcast.send(elements) }
    }

    /// Finishes every observer's stream (the store was closed).
    func finish() { broadcast.finish() }

    deinit { broadcast.finish() }
}
