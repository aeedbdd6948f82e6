/// Fans values out to any number of `AsyncStream` subscribers.
///
/// Each subscriber gets its own unbounded stream, so a slow subscriber never makes another
/// miss a value, and values arrive in the order they were sent. ``finish()`` ends every
/// stream, present and future.
///
/// NB: nothing is yielded or finished while the lock is held. A stream's `onTermination`
/// takes the lock, and the runtime calls it while it holds the cancelled iterator's task
/// status lock; a `yield` under our lock can wait for that same status lock, so the two
/// threads would wait for each other forever. Instead, sends are queued under the lock and
/// delivered outside it by whichever sender found no delivery running, so values still
/// arrive in the order they were sent.
@usableFromInline package final class Broadcast<Element: Sendable>: Sendable {
    @usableFromInline typealias Continuations = [UInt64: AsyncStream<Element>.Continuation]

    /// One queued delivery: a value (or the end) and the subscribers it goes to.
    @usableFromInline struct Delivery {
        @usableFromInline let element: Element?
        @usableFromInline let recipients: Continuations

        init(element: Element?, recipients: Continuations) {
            self.element = element
            self.recipients = recipients
        }
    }

    @usableFromInline struct State {
        @usableFromInline var continuations: Continuations = [:]
        @usableFromInline var queue: [Delivery] = []
        @usableFromInline var isDelivering = false
        @usableFromInline var nextKey: UInt64 = 0
        @usableFromInline var isFinished = false
        /// Called by ``send(_:)`` in the sender's context (see ``observe(_:)``).
        @usableFromInline var observers: [UInt64: @Sendable (Element) -> Void] = [:]

        init() {}
    }

    @usableFromInline let state = Locked(State())

    package init() {}

    /// A new stream that first yields `initial` (when given), then every value sent after it
    /// subscribed.
    package func subscribe(initial: Element? = nil) -> AsyncStream<Element> {
        subscribeAddressed(initial: initial).stream
    }

    /// A new stream, as ``subscribe(initial:)`` makes it, and the subscriber number that
    /// ``send(_:to:)`` sends to it by (`nil` when the broadcast has finished).
    package func subscribeAddressed(initial: Element? = nil) -> (stream: AsyncStream<Element>, subscriber: UInt64?) {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .unbounded)
        // NB: yielded before the continuation is shared, so nothing can come before it.
        if let initial { continuation.yield(initial) }
        let key: UInt64? = state.withLock { state in
            guard !state.isFinished else { return nil }
            defer { state.nextKey += 1 }
            state.continuations[state.nextKey] = continuation
            return state.nextKey
        }
        guard let key else {
            continuation.finish()
            return (stream, nil)
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.continuations.removeValue(forKey: key) }
        }
        return (stream, key)
    }

    /// Sends `element` to one subscriber, in order with everything sent to all of them.
    package func send(_ element: Element, to subscriber: UInt64) {
        enqueue(element, finishing: false, only: subscriber)
    }

    /// Sends `element` to every subscriber, and first to every observer (``observe(_:)``).
    @usableFromInline package func send(_ element: Element) {
        enqueue(element, finishing: false)
    }

    /// Finishes every stream after the values already sent; later subscribers get a
    /// finished stream.
    package func finish() {
        enqueue(nil, finishing: true)
    }

    /// Calls `observer` with every value ``send(_:)`` sends from now on, in the sender's
    /// context, before any stream gets it: what it records is whole when the sender returns.
    /// For a broadcast that one sender at a time sends to (a model's states, on the main
    /// actor); with several, two values may reach it out of order. Returns what stops it.
    package func observe(_ observer: @escaping @Sendable (Element) -> Void) -> @Sendable () -> Void {
        let key = state.withLock { state in
            defer { state.nextKey += 1 }
            state.observers[state.nextKey] = observer
            return state.nextKey
        }
        return { [weak self] in self?.state.withLock { _ = $0.observers.removeValue(forKey: key) } }
    }

    /// How many streams are subscribed now.
    package var subscriberCount: Int { state.withLock { $0.continuations.count } }

    /// Queues a delivery to the present subscribers and, when no other thread is delivering,
    /// delivers the queue outside the lock.
    func enqueue(_ element: Element?, finishing: Bool, only subscriber: UInt64? = nil) {
        var observers: [@Sendable (Element) -> Void] = []
        var delivery: Delivery? = state.withLock { state in
            // NB: in the same lock as the deliveries: a send to everyone reaches the observers.
            if subscriber == nil, !finishing, !state.isFinished, !state.observers.isEmpty {
                observers = Array(state.observers.values)
            }
            // NB: a value sent to no subscriber reaches nobody, queued or not.
            guard !state.isFinished, finishing || !state.continuations.isEmpty else { return nil }
            var recipients = state.continuations
            if let subscriber {
                guard let continuation = state.continuations[subscriber] else { return nil }
                recipients = [subscriber: continuation]
            }
            let delivery = Delivery(element: element, recipients: recipients)
            if finishing {
                state.isFinished = true
                state.continuations = [:]
            }
            if state.isDelivering {
                state.queue.append(delivery)
                return nil
            }
            state.isDelivering = true
            return delivery
        }
        if let element { for observer in observers { observer(element) } }
        while let current = delivery {
            if let element = current.element {
                for continuation in current.recipients.values { continuation.yield(element) }
            } else {
                for continuation in current.recipients.values { continuation.finish() }
            }
            delivery = state.withLock { state in
                guard !state.queue.isEmpty else {
                    state.isDelivering = false
                    return nil
                }
                return state.queue.removeFirst()
            }
        }
    }
}
