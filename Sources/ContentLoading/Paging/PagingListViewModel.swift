import ContentLoadingSupport
import Observation

/// A list loaded page by page: subclass it and override ``loadPage(_:cursor:)``.
///
/// ``ContentLoadingViewModel/refresh(_:)`` loads the first page (cursor `nil`); the list
/// already shown stays visible until that page arrives, then is replaced. ``loadNextPage()``
/// appends the next page: it is single-flight, never requests a page twice, and does nothing
/// before the first page or once the end is reached. "More available" comes from the next
/// cursor, so a list whose size is a multiple of the page size makes no request that comes
/// back empty. The next page has its own ``nextPageState``: a failed page keeps every page
/// before it, the list's state stays `success`, and ``retryNextPage()`` loads it again.
///
/// ```swift
/// final class FeedModel: PagingListViewModel<String, Post, String> {
///     override func loadPage(_ topic: String, cursor: String?) async throws -> Page<Post, String> {
///         let response = try await api.posts(topic: topic, after: cursor)
///         return Page(items: response.posts, nextCursor: response.next)
///     }
/// }
///
/// ForEach(model.items) { post in
///     PostRow(post).onAppear { model.loadMoreIfNeeded(currentItem: post) }
/// }
/// ```
///
/// See <doc:Paging>.
open class PagingListViewModel<Input: Sendable, Element: Sendable, Cursor: Sendable>:
    ContentLoadingViewModel<Input, PagedList<Element, Cursor>>
{
    enum Activity {
        case idle
        case loading(PagingOrigin)
        case failed(PagingOrigin, any Error)
    }

    /// How close to the end (in items) ``loadMoreIfNeeded(currentIndex:)`` starts the next page.
    public var prefetchDistance: Int
    /// At most this many pages are kept (the oldest are dropped), or `nil` to keep all.
    public let pageWindow: Int?
    var activity: Activity = .idle {
        didSet {
            // NB: the awaited next page settles as soon as it stops loading, even when its
            // task (a loader that ignores cancellation) runs on.
            guard case .loading = activity else { return settleNextPage() }
        }
    }

    let deduplicationKey: DeduplicationKey<Element>?
    let nextPageTask = Locked<Task<Void, Never>?>(nil)
    /// Resolved when the next page in flight settles (see ``NextPageHandle``).
    let nextPageSettle = Locked<SettleSignal<Void>?>(nil)
    let nextPageStates = Broadcast<NextPageState>()
    var publishedNextPageState = NextPageState.idle
    /// Built once: in a generic class a key path literal is built at run time on every use.
    lazy var nextPageStateKeyPath = \PagingListViewModel.nextPageState

    /// Creates a paging model.
    ///
    /// - Parameters:
    ///   - refreshPolicy: What a refresh does while the first page loads.
    ///   - lifetimeTrigger: When view lifetime events refresh; `nil` for never.
    ///   - initialInput: The input lifetime refreshes use before the first refresh.
    ///   - clock: The clock that measures the content's age.
    ///   - prefetchDistance: How close to the end the next page starts loading. Defaults to 5.
    ///   - pageWindow: Keep at most this many pages, dropping the oldest (for endless feeds).
    ///   - deduplicatingBy: A key (such as `{ $0.id }`) under which an item already in the list
    ///     is skipped when pages overlap; `nil` keeps every item. Within one page a repeated
    ///     key fails that page with ``DuplicateIDError`` (the kit's rule for duplicate ids).
    public init(
        refreshPolicy: RefreshPolicy = .latestWins,
        lifetimeTrigger: LifetimeTrigger? = nil,
        initialInput: Input? = nil,
        clock: any Clock<Duration> = ContinuousClock(),
        prefetchDistance: Int = 5,
        pageWindow: Int? = nil,
        deduplicatingBy: (@Sendable (Element) -> any Hashable & Sendable)? = nil
    ) {
        self.prefetchDistance = prefetchDistance
        self.pageWindow = pageWindow
        self.deduplicationKey = deduplicatingBy.map(DeduplicationKey.init)
        super.init(
            refreshPolicy: refreshPolicy, lifetimeTrigger: lifetimeTrigger, initialInput: initialInput, clock: clock)
    }

    deinit {
        nextPageTask.withLock { $0 }?.cancel()
        nextPageSettle.withLock { $0 }?.resolve(())
        nextPageStates.finish()
    }

    /// Loads one page for `input`: the first when `cursor` is `nil`. Override it; it runs off
    /// the main actor.
    ///
    /// - Returns: The page's items and the cursor of the next page (`nil` at the end).
    nonisolated open func loadPage(_ input: Input, cursor: Cursor?) async throws -> Page<Element, Cursor> {
        preconditionFailure("\(Self.self) must override loadPage(_:cursor:)")
    }

    /// Loads the first page. Paging models override ``loadPage(_:cursor:)`` instead.
    public final override nonisolated func load(_ input: Input) async throws -> PagedList<Element, Cursor> {
        let page = try checked(await loadPage(input, cursor: nil))
        return PagedList(first: page, origin: PagingOrigin(input: input), key: deduplicationKey)
    }

    /// Cancels a next-page load when a refresh starts, and publishes next-page state changes.
    /// An override must call `super`.
    open override func stateDidChange(
        from oldState: ContentLoadingState<PagedList<Element, Cursor>>,
        to newState: ContentLoadingState<PagedList<Element, Cursor>>
    ) {
        // NB: a refresh starts a new list; a next page of the old one must not land in it.
        if newState.isLoading && !oldState.isLoading { cancelNextPage() }
        publishNextPageState()
    }

    /// `page`, when it holds each key once (with `deduplicatingBy:`), by the kit's rule for
    /// duplicate ids: a page that repeats a key fails with ``DuplicateIDError``.
    nonisolated func checked(_ page: Page<Element, Cursor>) throws -> Page<Element, Cursor> {
        if let deduplicationKey { try DuplicateIDError.check(page.items) { deduplicationKey.value(of: $0).base } }
        return page
    }

    /// The items of every page loaded so far (an empty list before the first page).
    public var items: PagedList<Element, Cursor> { content ?? PagedList() }
}
