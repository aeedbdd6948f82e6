import ContentLoadingSupport
import Foundation

extension KeyedRepository {
    /// A stream of what `key` holds: the cached value and, as `policy` says, a fetch; then
    /// every later write of `key` (a fetch, a save anywhere in the process) and ``CacheEvent/noValue``
    /// when it is removed. Errors (a failed fetch, an unreadable disk entry) are events; the
    /// stream goes on until the iterating task is cancelled.
    ///
    /// ```swift
    /// for await event in repository.events(for: sellerID, policy: .returnCacheThenLoad) {
    ///     if case .value(let cached) = event { print(cached.origin, cached.age, cached.value) }
    /// }
    /// ```
    public func events(for key: Key, policy: CachePolicy = .returnCacheElseLoad) -> AsyncStream<CacheEvent<Value>> {
        read(key, policy: policy, as: { $0 }, fetchingWithoutValue: nil)
    }

    /// The steps of a read of `key` with `policy`: its events, and
    /// ``ReadStep/fetchingWithoutValue`` when it found nothing to show and fetches.
    func steps(for key: Key, policy: CachePolicy) -> AsyncStream<ReadStep<Value>> {
        read(key, policy: policy, as: { .event($0) }, fetchingWithoutValue: .fetchingWithoutValue)
    }

    /// A read of `key` with `policy`, each event made an `Event` by `wrap`; `announcement`, when
    /// given, is yielded when the read found nothing to show and fetches.
    private func read<Event: Sendable>(
        _ key: Key, policy: CachePolicy, as wrap: @escaping @Sendable (CacheEvent<Value>) -> Event,
        fetchingWithoutValue announcement: Event?
    ) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .unbounded)
        let channel = checkOutChannel(for: key)
        // NB: subscribed before the tiers are read, so no write between the two is missed.
        let deliveries = channel.readers.subscribe()
        let task = Task {
            defer { checkInChannel(for: key) }
            var reader = Reader(repository: self, key: key, channel: channel) { continuation.yield(wrap($0)) }
            let announce: (() -> Void)? = announcement.map { event in { continuation.yield(event) } }
            let fetching = await reader.start(key, policy: policy, announcing: announce)
            // NB: the key's writes buffer in `deliveries` while the tiers are read, and reach
            // the reader while its fetch is still running.
            for await delivery in deliveries { reader.deliver(delivery) }
            fetching?.cancel()
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// One read: turns deliveries into events, never one older than the last it gave.
    private struct Reader {
        let repository: KeyedRepository
        let key: Key
        let channel: KeyChannel<Value>
        /// Hands an event to the read's stream.
        let yield: @Sendable (CacheEvent<Value>) -> Void
        var lastVersion: UInt64 = 0
        /// Whether a value was given.
        var hasShown = false
        /// Whether the last value given said a fetch was on the way.
        var isRefreshing = false
        /// Whether the read started a fetch with nothing to show, and waits for it.
        var awaitsFetch = false
        /// A network-first read's answer to a failed fetch: what the tiers held (`.some(nil)`:
        /// nothing), until a failure or a newer value arrives.
        var fallback: Hit??

        /// Serves the tiers and starts the fetch `policy` asks for, whose outcome reaches the
        /// reader through the key's deliveries (for a network-first read that fails, followed by
        /// the cached value or "no value"). Calls `announce` when it fetches with nothing shown.
        /// Returns the task waiting for that fetch.
        mutating func start(_ key: Key, policy: CachePolicy, announcing announce: (() -> Void)?) async
            -> Task<Void, Never>?
        {
            let fetching = await serve(key, policy: policy)
            if fetching != nil, !hasShown {
                awaitsFetch = true
                announce?()
            }
            return fetching
        }

        private mutating func serve(_ key: Key, policy: CachePolicy) async -> Task<Void, Never>? {
            let seen = channel.writtenVersion
            let (hit, failure) = await repository.lookUp(key)
            if let failure { yield(.error(failure)) }
            switch policy {
            case .returnCacheElseLoad:
                if let hit {
                    let stale = repository.isStale(
                        key, writtenAt: hit.writtenAt, version: hit.version, at: repository.now())
                    deliver(hit, refreshing: stale)
                    if stale { repository.revalidate(key) }
                    return nil
                }
                return repository.fetchTask(key, unlessWrittenAfter: seen)
            case .returnCacheDontLoad:
                if let hit { deliver(hit) } else { yield(.noValue) }
                return nil
            case .reloadIgnoringCache:
                return repository.fetchTask(key)
            case .returnCacheThenLoad:
                if let hit { deliver(hit, refreshing: true) }
                return repository.fetchTask(key)
            case .loadElseReturnCache:
                fallback = .some(hit)
                return repository.fetchTask(key)
            }
        }

        /// Yields `hit` unless a later write was already given. `refreshing`: this read has a
        /// fetch on the way (a write delivered to every reader never says so: a fetch that
        /// started before a save cannot overwrite it).
        mutating func deliver(_ hit: Hit, refreshing: Bool = false, unchanged: Bool = false) {
            guard hit.version > lastVersion else { return }
            lastVersion = hit.version
            hasShown = true
            isRefreshing = refreshing
            let cached = repository.cachedValue(
                of: hit, for: key, refreshing: refreshing, unchanged: unchanged, at: repository.now())
            yield(.value(cached))
        }

        /// Yields a write or failure that every reader of the key receives.
        mutating func deliver(_ delivery: KeyChannel<Value>.Delivery) {
            switch delivery {
            case .value(let value, let origin, let writtenAt, let version):
                fallback = nil
                deliver(Hit(value: value, writtenAt: writtenAt, version: version, origin: origin))
            case .removed(let version):
                guard version > lastVersion else { return }
                lastVersion = version
                if fallback != nil { fallback = .some(nil) }
                yield(.noValue)
            case .confirmed(let value, let writtenAt, let version):
                // NB: a fetch that found the value unchanged gives it again only to a read
                // that said a fetch was on the way, or that waits for it (nothing shown yet).
                let waiting = isRefreshing || (!hasShown && (awaitsFetch || fallback != nil))
                fallback = nil
                guard waiting else {
                    lastVersion = max(lastVersion, version)
                    return
                }
                deliver(Hit(value: value, writtenAt: writtenAt, version: version, origin: .remote), unchanged: true)
            case .failure(let error):
                yield(.error(error))
                guard let answer = fallback else { return }
                fallback = nil
                if let hit = answer { deliver(hit) } else { yield(.noValue) }
            }
        }
    }
}
