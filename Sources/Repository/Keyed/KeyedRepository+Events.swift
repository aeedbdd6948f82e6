import ContentLoadingSupport
import Foundation

extension KeyedRepository {
    /// A stream of what `key` holds: the cached value and, as `policy` says, a fetch; then
    /// every later write of `key` (a fetch, a save anywhere in the process) and ``CacheEvent/noValue``
    /// when it is removed. Errors (a failed fetch, an unreadable disk entry) are events; the
    /// stream goes on until the iterating task is cancelled or the stream is dropped.
    ///
    /// The read starts when the stream is first iterated: a stream that is made and never
    /// iterated reads nothing, fetches nothing and is not a reader of `key`. A fetch the read
    /// starts (or joins) is cancelled when the read ends, unless someone else waits for it.
    ///
    /// ```swift
    /// for await event in repository.events(for: sellerID, policy: .returnCacheThenLoad) {
    ///     if case .value(let cached) = event { print(cached.origin, cached.age, cached.value) }
    /// }
    /// ```
    public func events(for key: Key, policy: CachePolicy = .returnCacheElseLoad) -> AsyncStream<CacheEvent<Value>> {
        let start = LazyStart { [self] in read(key, policy: policy, as: { $0 }, fetchingWithoutValue: nil) }
        return AsyncStream(unfolding: { await start.next() })
    }

    /// The steps of a read of `key` with `policy`: its events, and
    /// ``ReadStep/fetchingWithoutValue`` when it found nothing to show and fetches.
    func steps(for key: Key, policy: CachePolicy) -> AsyncStream<ReadStep<Value>> {
        read(
            key, policy: policy, as: { .event($0) }, fetchingWithoutValue: .fetchingWithoutValue, caughtUp: .caughtUp,
            revalidating: .revalidating)
    }

    /// A read of `key` with `policy`, started now, each event made an `Event` by `wrap`;
    /// `announcement`, when given, is yielded when the read found nothing to show and fetches;
    /// `caughtUp`, when given, each time the read has no fetch on the way any more;
    /// `revalidating`, when given, when it starts a fetch that no value it gave announced.
    private func read<Event: Sendable>(
        _ key: Key, policy: CachePolicy, as wrap: @escaping @Sendable (CacheEvent<Value>) -> Event,
        fetchingWithoutValue announcement: Event?, caughtUp: Event? = nil, revalidating: Event? = nil
    ) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .unbounded)
        let channel = checkOutChannel(for: key)
        // NB: subscribed before the tiers are read, so no write between the two is missed.
        let (deliveries, subscriber) = channel.readers.subscribeAddressed()
        let task = Task {
            defer { checkInChannel(for: key) }
            var reader = KeyReader(
                repository: self, key: key, policy: policy, channel: channel, subscriber: subscriber
            ) { continuation.yield(wrap($0)) }
            if let caughtUp { reader.reportCaughtUp = { continuation.yield(caughtUp) } }
            if let revalidating { reader.reportRevalidating = { continuation.yield(revalidating) } }
            let announce: (() -> Void)? = announcement.map { event in { continuation.yield(event) } }
            await reader.start(announcing: announce)
            // NB: the key's writes buffer in `deliveries` while the tiers are read, and reach
            // the reader while its fetch is still running.
            for await delivery in deliveries { await reader.receive(delivery) }
            reader.stop()
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

/// Starts a stream when it is first asked for an element, then hands on its elements.
private final class LazyStart<Element: Sendable>: Sendable {
    private let make: @Sendable () -> AsyncStream<Element>
    /// Whether the stream was started, and its iterator; the iterator is out of the lock while
    /// an element is awaited (the stream has one consumer, so `next()` calls never overlap).
    private let state = Locked<(started: Bool, iterator: AsyncStream<Element>.Iterator?)>((false, nil))

    init(_ make: @escaping @Sendable () -> AsyncStream<Element>) { self.make = make }

    func next() async -> Element? {
        let (isFirst, taken) = state.withLock { state in
            defer { state.started = true }
            return (!state.started, state.iterator.take())
        }
        var current = isFirst ? make().makeAsyncIterator() : taken
        let element = await current?.next()
        state.withLock { $0.iterator = current }
        return element
    }
}
