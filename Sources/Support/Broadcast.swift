/// Fans values out to any number of `AsyncStream` subscribers.
///
/// Each subscriber gets its own unbounded stream, so a slow subscriber never makes another
/// miss a value, and values arrive in the order they were sent. ``finish()`` ends every
/// stream, present and future.
@usableFromInline package final class Broadcast<Element: Sendable>: Sendable {
    @usableFromInline struct Subscribers {
        @usableFromInline var continuations: [UInt64: AsyncStream<Element>.Continuation] = [:]
        var nextKey: UInt64 = 0
        var isFinished = false
    }

    @usableFromInline let subscribers = Locked(Subscribers())

    package init() {}

    /// A new stream that first yields `initial` (when given), then every value sent.
    package func subscribe(initial: Element? = nil) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .unbounded)
        let key: UInt64? = subscribers.withLock { subscribers in
            if let initial { continuation.yield(initial) }
            guard !subscribers.isFinished else { return nil }
            let key = subscribers.nextKey
            subscribers.nextKey += 1
            subscribers.continuations[key] = continuation
            return key
        }
        guard let key else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { _ = $0.continuations.removeValue(forKey: key) }
        }
        return stream
    }

    /// Sends `element` to every subscriber.
    @inlinable package func send(_ element: Element) {
        subscribers.withLock { subscribers in
            for continuation in subscribers.continuations.values { continuation.yield(element) }
        }
    }

    /// Finishes every stream; later subscribers get a finished stream.
    package func finish() {
        let continuations = subscribers.withLock { subscribers in
            subscribers.isFinished = true
            defer { subscribers.continuations = [:] }
            return subscribers.continuations.values
        }
        for continuation in continuations { continuation.finish() }
    }

    /// How many streams are subscribed now.
    package var subscriberCount: Int { subscribers.withLock { $0.continuations.count } }
}
