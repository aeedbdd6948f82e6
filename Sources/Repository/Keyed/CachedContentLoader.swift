import ContentLoading
import Observation

/// A view model bound to reads of a ``KeyedRepository``: each refresh with a key reads that key
/// with the model's ``CachePolicy`` and shows every value the read delivers.
///
/// With ``CachePolicy/returnCacheThenLoad`` (the default) and a cached value, the cached value
/// is the first settled state (`success`; never `empty` or `error` first) and
/// ``isRefreshing`` is `true` until the fetch delivers the new value or fails: a screen keeps
/// the content and shows a refreshing indicator. A fetch error keeps the content too
/// (`error(_, previous:)`), and later saves of the key still arrive.
///
/// ```swift
/// let model = CachedContentLoader(repository: contacts)            // returnCacheThenLoad
/// let refresh = model.refresh(sellerID)
/// await refresh.settled()                                           // .success(cached) from disk
/// let busy = model.isRefreshing                                     // true while the fetch runs
/// await refresh.completed()                                         // .success(fetched), stored
/// ```
///
/// `settled()` returns when something is shown (here the cached value); `completed()` when the
/// refresh is done: its fetch ended and what it fetched is stored and shown. A pull-to-refresh
/// spinner awaits `completed()`.
///
/// A refresh with another key ends ``isRefreshing`` at once: the earlier key's revalidation is
/// cancelled with its read. To a `LifetimeTrigger` a revalidation is a running load: its
/// cancel event (`.everyAppearance` cancels on `didDisappear`) stops the fetch, content kept,
/// and its refresh event does not start a second read beside it.
///
/// A first load stays `ContentLoadingState.unloaded` while the tiers are read (the disk tier
/// off the main actor), so a cached value is the first state shown, with no blank `loading`
/// before it; `loading(previous: nil)` appears only when nothing is cached and the read
/// fetches (see `ContentLoadingViewModel.defersLoading`). A ``CacheEvent/noValue`` (a
/// ``CachePolicy/returnCacheDontLoad`` miss, or a removal: ``KeyedRepository/remove(_:)``,
/// ``KeyedRepository/removeAll()``, or ``ElementStore/remove(id:)`` of a detail) makes the state
/// `empty`, dropping what was shown, and the read goes on: a later save of the key is shown.
/// A ``CachePolicy/loadElseReturnCache`` fetch that fails shows the cached value with the
/// error beside it (`error(_, previous:)`), never a blank `error` first; with nothing cached,
/// the state stays `error`.
@MainActor
open class CachedContentLoader<Key: CacheKey, Value: Codable & Sendable>: ContentLoadingViewModel<Key, Value> {
    /// Where the values come from.
    public let repository: KeyedRepository<Key, Value>
    /// Whether and when each read fetches.
    public let policy: CachePolicy
    private let registrar = ObservationRegistrar()
    private var storedIsRefreshing = false
    /// The read whose values the model shows now; an older read's values do not change
    /// ``isRefreshing``.
    private var currentRead = 0
    /// The key of the current read.
    private var currentKey: Key?

    /// Whether a fetch of the shown key is on the way while the content shown is cached: the
    /// read's own revalidation, or one an invalidation of the key started
    /// (``KeyedRepository/invalidate(_:)``, a mutation's invalidated keys).
    public private(set) var isRefreshing: Bool {
        get {
            registrar.access(self, keyPath: \.isRefreshing)
            return storedIsRefreshing
        }
        set {
            // NB: a lifetime event counts a revalidation as a running load (`cancelOn` stops it).
            isRevalidating = newValue
            guard newValue != storedIsRefreshing else { return }
            registrar.withMutation(of: self, keyPath: \.isRefreshing) { storedIsRefreshing = newValue }
        }
    }

    /// Creates a model over `repository`.
    ///
    /// - Parameters:
    ///   - repository: Where the values come from.
    ///   - policy: Whether and when each read fetches. Defaults to ``CachePolicy/returnCacheThenLoad``.
    ///   - refreshPolicy: What a refresh does while a read runs. Defaults to `RefreshPolicy.latestWins`.
    ///   - lifetimeTrigger: When view lifetime events refresh; `nil` for never.
    ///   - initialInput: The key lifetime refreshes use before the first refresh.
    public init(
        repository: KeyedRepository<Key, Value>,
        policy: CachePolicy = .returnCacheThenLoad,
        refreshPolicy: RefreshPolicy = .latestWins,
        lifetimeTrigger: LifetimeTrigger? = nil,
        initialInput: Key? = nil
    ) {
        self.repository = repository
        self.policy = policy
        super.init(refreshPolicy: refreshPolicy, lifetimeTrigger: lifetimeTrigger, initialInput: initialInput)
    }

    /// A first load shows nothing until the read answers: a cached value is the first state,
    /// `loading(previous: nil)` comes only when the read found nothing and fetches.
    open override var defersLoading: Bool { true }

    /// Reads `key` with ``policy``: its values and errors, until the next refresh.
    open override func producer(for key: Key) -> ContentProducer<Value> {
        currentRead += 1
        let readNumber = currentRead
        // NB: another key's read shows nothing of this one's revalidation, which the refresh
        // cancels (a read of the same key says so again at its first value, if it joins it).
        if key != currentKey { isRefreshing = false }
        currentKey = key
        let steps = repository.steps(for: key, policy: policy)
        let policy = policy
        return .reporting { [weak self] load in
            var read = CachedRead<Value>(policy: policy)
            for await step in steps {
                for action in read.actions(for: step) {
                    switch action {
                    case .send(let event): await load.send(event)
                    case .clear: await load.clear()
                    case .showLoading: await load.showLoading()
                    case .caughtUp: await load.caughtUp()
                    case .refreshing(let refreshing): await self?.setRefreshing(refreshing, for: readNumber)
                    }
                }
            }
            await self?.setRefreshing(false, for: readNumber)
        }
    }

    private func setRefreshing(_ refreshing: Bool, for read: Int) {
        guard read == currentRead else { return }
        isRefreshing = refreshing
    }
}
