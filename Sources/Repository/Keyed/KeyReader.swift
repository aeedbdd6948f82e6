import ContentLoadingSupport
import Foundation

/// One read of a ``KeyedRepository`` key: serves the tiers and the fetch its policy asks for,
/// then turns the key's deliveries into events, never one older than the last it gave.
///
/// Every fetch the read starts or joins tells it how it ended, after everything that fetch
/// delivered, so a read that joined a fetch late still ends with its value or error and is
/// never left refreshing. The read owns those fetches: they are cancelled when it stops
/// (unless someone else waits for them).
struct KeyReader<Key: CacheKey, Value: Sendable> {
    typealias Repository = KeyedRepository<Key, Value>
    typealias Delivery = KeyChannel<Value>.Delivery

    let repository: Repository
    let key: Key
    let policy: CachePolicy
    let channel: KeyChannel<Value>
    /// This read's subscriber number in the key's broadcast (`nil`: the broadcast has ended).
    let subscriber: UInt64?
    /// Hands an event to the read's stream.
    let yield: @Sendable (CacheEvent<Value>) -> Void
    /// Told each time the read has no fetch of its own on the way any more, after everything
    /// that fetch delivered (or, for a read that starts none, once the tiers answered).
    var reportCaughtUp: (@Sendable () -> Void)?
    /// Told when the read starts a fetch after it gave a value (an invalidation's), which no
    /// value it gave announced.
    var reportRevalidating: (@Sendable () -> Void)?
    var lastVersion: UInt64 = 0
    /// The last value given, while it said a fetch was on the way (to give again when the fetch
    /// ends unchanged). Not kept otherwise: a reader holding the list would make every edit of
    /// the list in memory copy it.
    var lastHit: Repository.Hit?
    /// Whether a value was given.
    var hasShown = false
    /// Whether the last value given said a fetch was on the way.
    var isRefreshing = false
    /// Whether the read started a fetch with nothing to show, and waits for it.
    var awaitsFetch = false
    /// A network-first read's answer to a failed fetch: what the tiers held (`.some(nil)`:
    /// nothing), until a failure or a newer value arrives.
    var fallback: Repository.Hit??
    /// The fetch this read waits for, until it has said how it ended.
    var fetching: Task<Void, Never>?
    /// The last fetched value left out while the read waited for its own fetch (see
    /// ``receive(_:)``), given after that fetch's when newer.
    var heldBack: Delivery?
    /// The last invalidation of the key this read heard of, and the last failed fetch it was told of.
    var invalidation: UInt64 = 0
    var lastFailedFlight: UInt64?

    /// Serves the tiers and starts the fetch the policy asks for, whose outcome reaches the
    /// reader through the key's deliveries (for a network-first read that fails, followed by
    /// the cached value or "no value"). Calls `announce` when it fetches with nothing shown.
    mutating func start(announcing announce: (() -> Void)?) async {
        let seen = channel.writtenVersion
        let (hit, failure) = await repository.lookUp(key)
        if let failure { yield(.error(failure)) }
        switch policy {
        case .returnCacheElseLoad:
            if let hit {
                let stale = repository.isStale(
                    key, value: hit.value, writtenAt: hit.writtenAt, version: hit.version, validators: hit.validators,
                    at: repository.now())
                deliver(hit, refreshing: stale)
                // NB: a value written since the one read meets the revalidation: a fetch that has
                // it in hand (another reader's) is joined, none is made once it is stored.
                if stale { startFetch(unlessWrittenAfter: seen) }
            } else {
                startFetch(unlessWrittenAfter: seen)
            }
        case .returnCacheDontLoad:
            if let hit { deliver(hit) } else { yield(.noValue) }
        case .reloadIgnoringCache:
            startFetch()
        case .returnCacheThenLoad:
            if let hit { deliver(hit, refreshing: true) }
            startFetch()
        case .loadElseReturnCache:
            fallback = .some(hit)
            startFetch()
        }
        if fetching != nil, !hasShown {
            awaitsFetch = true
            announce?()
        }
        if fetching == nil { reportCaughtUp?() }
    }

    /// Whether the read waits for a fetch to answer it: it said one was on the way, or it has
    /// shown nothing and started one (or waits to fall back on the cache).
    private var waitsForFetch: Bool { isRefreshing || (!hasShown && (awaitsFetch || fallback != nil)) }

    /// Cancels the fetch this read waits for (it goes on while others wait for it).
    func stop() { fetching?.cancel() }

    private mutating func startFetch(unlessWrittenAfter seen: UInt64? = nil) {
        fetching = repository.fetchTask(key, unlessWrittenAfter: seen, reportingTo: subscriber)
    }

    /// Starts a fetch for an invalidation, and says so when a value was given.
    private mutating func startRevalidation() {
        startFetch()
        if hasShown { reportRevalidating?() }
    }

    /// Takes in one delivery of the key.
    mutating func receive(_ delivery: Delivery) async {
        switch delivery {
        case .invalidated(let count):
            // NB: a read that never fetches is not a reason to fetch.
            guard policy != .returnCacheDontLoad else { return }
            invalidation = max(invalidation, count)
            if fetching == nil { startRevalidation() }
        case .fetchEnded(let end):
            fetching = nil
            await settle(end)
            if let heldBack {
                self.heldBack = nil
                deliver(heldBack)
            }
            // NB: a fetch whose request started before the last invalidation is followed by one
            // more (every reader joins the same one).
            if let started = end.started, started.invalidations < invalidation { startRevalidation() }
            if fetching == nil { reportCaughtUp?() }
        default:
            // NB: a read that fetches first, with nothing shown, is given its fetch's value when
            // that fetch ends: a fetched value before it may be an older fetch's, whose request
            // started before a save, removal or invalidation this read came after. The last one
            // left out follows it when newer (a fetch after it).
            if holdsFetchedValues, delivery.isFetched {
                heldBack = delivery
                return
            }
            deliver(delivery)
        }
    }

    /// Whether the read fetches first and waits for its fetch with nothing shown.
    private var holdsFetchedValues: Bool {
        awaitsFetch && !hasShown && (policy == .reloadIgnoringCache || policy == .loadElseReturnCache)
    }

    /// Ends the wait for the fetch that ended with `end`: the read gets its value or error,
    /// whenever it joined it, and is no longer refreshing.
    private mutating func settle(_ end: KeyChannel<Value>.FlightEnd) async {
        switch end.result {
        case .failure(let error):
            isRefreshing = false
            awaitsFetch = false
            guard end.flight != lastFailedFlight, !(error is CancellationError) else { return }
            fail(error)
        case .success:
            if let delivery = end.delivery { deliver(delivery) }
            guard waitsForFetch else { return }
            awaitsFetch = false
            fallback = nil
            if let lastHit {
                // NB: what the read showed is what the tiers hold after the fetch (it read it
                // there, or it is newer): shown again, no longer refreshing.
                deliver(lastHit, unchanged: true, again: true)
            } else if let hit = await repository.lookUp(key).hit {
                deliver(hit)
            } else {
                yield(.noValue)
            }
        }
    }

    /// Yields `hit` unless a later write was already given (`again`: unless it is older than
    /// the last given). `refreshing`: this read has a fetch on the way (a write delivered to
    /// every reader never says so: a fetch that started before a save cannot overwrite it).
    mutating func deliver(_ hit: Repository.Hit, refreshing: Bool = false, unchanged: Bool = false, again: Bool = false)
    {
        guard hit.version > lastVersion || (again && hit.version == lastVersion) else { return }
        lastVersion = hit.version
        lastHit = refreshing ? hit : nil
        hasShown = true
        isRefreshing = refreshing
        let cached = repository.cachedValue(
            of: hit, for: key, refreshing: refreshing, unchanged: unchanged, at: repository.now())
        yield(.value(cached))
    }

    /// Yields a write or failure that every reader of the key receives.
    private mutating func deliver(_ delivery: Delivery) {
        switch delivery {
        case .value(let value, let origin, let writtenAt, let version, let validators):
            fallback = nil
            awaitsFetch = false
            deliver(
                Repository.Hit(
                    value: value, writtenAt: writtenAt, version: version, origin: origin, validators: validators))
        case .edited(let value, let origin, let writtenAt, let version, let validators):
            fallback = nil
            awaitsFetch = false
            deliver(
                Repository.Hit(
                    value: value, writtenAt: writtenAt, version: version, origin: origin, validators: validators),
                again: true)
        case .removed(let version):
            guard version > lastVersion else { return }
            lastVersion = version
            if fallback != nil { fallback = .some(nil) }
            yield(.noValue)
        case .confirmed(let value, let writtenAt, let version, let validators):
            // NB: a fetch that found the value unchanged gives it again only to a read
            // that said a fetch was on the way, or that waits for it (nothing shown yet).
            let waiting = waitsForFetch
            fallback = nil
            guard waiting else {
                lastVersion = max(lastVersion, version)
                return
            }
            awaitsFetch = false
            let hit = Repository.Hit(
                value: value, writtenAt: writtenAt, version: version, origin: .remote, validators: validators)
            deliver(hit, unchanged: true)
        case .failure(let error, let flight):
            if let flight { lastFailedFlight = flight }
            fail(error)
        case .invalidated, .fetchEnded:
            break
        }
    }

    /// Yields `error`; a network-first read then gives what the tiers held.
    private mutating func fail(_ error: any Error) {
        yield(.error(error))
        guard let answer = fallback else { return }
        fallback = nil
        if let hit = answer { deliver(hit) } else { yield(.noValue) }
    }
}
