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
/// A first load stays `ContentLoadingState.unloaded` while the tiers are read (the disk tier
/// off the main actor), so a cached value is the first state shown, with no blank `loading`
/// before it; `loading(previous: nil)` appears only when nothing is cached and the read
/// fetches (see `ContentLoadingViewModel.defersLoading`). A ``CacheEvent/noValue`` (a
/// ``CachePolicy/returnCacheDontLoad`` miss, or a removal: ``KeyedRepository/remove(_:)``,
/// ``KeyedRepository/removeAll()``, or ``ElementStore/remove(id:)`` of a detail) makes the state
/// `empty`, dropping what was shown, and the read goes on: a later save of the key is shown.
/// A ``CachePolicy/loadElseReturnCache`` fetch that fails with nothing cached stays `error`.
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

    /// Whether a fetch of the shown key is on the way while the content shown is cached: the
    /// read's own revalidation, or one an invalidation of the key started
    /// (``KeyedRepository/invalidate(_:)``, a mutation's invalidated keys).
    public private(set) var isRefreshing: Bool {
        get {
            registrar.access(self, keyPath: \.isRefreshing)
            return storedIsRefreshing
        }
        set {
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
        let read = currentRead
        let steps = repository.steps(for: key, policy: policy)
        return .reporting { [weak self] load in
            var shown = false
            var failed = false
            for await step in steps {
                switch step {
                case .fetchingWithoutValue:
                    await load.showLoading()
                case .revalidating:
                    if shown { await self?.setRefreshing(true, for: read) }
                case .caughtUp:
                    await self?.setRefreshing(false, for: read)
                    await load.caughtUp()
                case .event(.value(let cached)):
                    // NB: `isRefreshing` changes before the value it goes with reaches the state.
                    await self?.setRefreshing(cached.isRefreshing, for: read)
                    // NB: a value a fetch found unchanged (a 304) is the one shown: not sent again.
                    if cached.isUnchanged && shown { continue }
                    (shown, failed) = (true, false)
                    await load.send(.value(cached.value))
                case .event(.error(let error)):
                    await self?.setRefreshing(false, for: read)
                    failed = true
                    await load.send(.error(error))
                case .event(.noValue):
                    await self?.setRefreshing(false, for: read)
                    // NB: a removal drops what was shown; a failed fetch with nothing cached
                    // (a network-first read) keeps its error. The read goes on either way.
                    if shown || !failed { await load.clear() }
                    shown = false
                }
            }
            await self?.setRefreshing(false, for: read)
        }
    }

    private func setRefreshing(_ refreshing: Bool, for read: Int) {
        guard read == currentRead else { return }
        isRefreshing = refreshing
    }
}
