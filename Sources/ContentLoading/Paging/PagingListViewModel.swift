import ContentLoadingSupport
import Observation

/// A list loaded page by page, in either direction: make it with a `loadPage` function
/// (``init(refreshPolicy:lifetimeTrigger:initialInput:clock:prefetchDistance:pageWindow:deduplicatingBy:loadPage:)``),
/// or subclass it and override ``loadPage(_:cursor:)``.
///
/// ``ContentLoadingViewModel/refresh(_:)`` loads the initial page (cursor `nil`); the list
/// already shown stays visible until that page arrives, then is replaced. ``loadNextPage()``
/// appends the next page: it is single-flight, never requests a page twice, and does nothing
/// before the first page or once the end is reached. "More available" comes from the next
/// cursor, so a list whose size is a multiple of the page size makes no request that comes
/// back empty. The next page has its own ``nextPageState``: a failed page keeps every page
/// before it, the list's state stays `success`, and ``retryNextPage()`` loads it again.
/// ``loadPreviousPage()`` does the same before the first page, with its own
/// ``previousPageState``, when the pages give previous cursors (a list opened in the middle)
/// or a page window dropped pages from the start.
///
/// ```swift
/// let model = PagingListViewModel<String, Post, String> { topic, cursor in
///     let response = try await api.posts(topic: topic, after: cursor)   // off the main actor
///     return Page(items: response.posts, nextCursor: response.next)
/// }
///
/// ForEach(model.items) { post in
///     PostRow(post).onAppear { model.loadMoreIfNeeded(currentItem: post) }
/// }
/// ```
///
/// Made with a ``PagingSource`` (`init(source:)`), its pages live in a store: it opens from the
/// stored pages, offline too, and pages on through them without a request.
///
/// See <doc:Paging>.
open class PagingListViewModel<Input: Sendable, Element: Sendable, Cursor: Sendable>:
    ContentLoadingViewModel<Input, PagedList<Element, Cursor>>
{
    /// How close to either end (in items) ``loadMoreIfNeeded(currentIndex:)`` starts the next
    /// (or previous) page.
    public var prefetchDistance: Int
    /// At most this many pages are kept, or `nil` (or a number below 1) to keep all. Appending
    /// drops the first pages, prepending the last; paging back that way loads them again.
    public let pageWindow: Int?

    let deduplicationKey: DeduplicationKey<Element>?
    /// The end after the last page.
    let nextEnd = PageLoadEnd<Element, Cursor>()
    /// The end before the first page.
    let previousEnd = PageLoadEnd<Element, Cursor>()
    /// The `init(loadPage:)` function, or `nil` for a subclass that overrides ``loadPage(_:cursor:)``.
    private let pageOperation: (@Sendable (Input, Cursor?) async throws -> Page<Element, Cursor>)?
    /// Where the pages come from when a store keeps them (`init(source:)`), or `nil`.
    let source: PagingSourceOperations<Input, Element, Cursor>?
    /// The item whose place a refresh keeps (``anchor``), or `nil`.
    var placeAnchor: PlaceAnchor<Element>?
    /// The source's changes heard while a load ran, to apply again to its result.
    var heardChanges = HeardChanges<Element, Cursor>()
    /// Whether an edit of the list shown is being shown (see `showEdit(_:)`): a list it leaves
    /// with no item is not loaded on by itself (a sign-out removes every element under a model
    /// on screen).
    var isShowingEdit = false
    /// Built once: in a generic class a key path literal is built at run time on every use.
    lazy var nextPageStateKeyPath = \PagingListViewModel.nextPageState
    lazy var previousPageStateKeyPath = \PagingListViewModel.previousPageState

    /// Creates a paging model.
    ///
    /// - Parameters:
    ///   - refreshPolicy: What a refresh does while the first page loads.
    ///   - lifetimeTrigger: When view lifetime events refresh; `nil` for never.
    ///   - initialInput: The input lifetime refreshes use before the first refresh.
    ///   - clock: The clock that measures the content's age.
    ///   - prefetchDistance: How close to the end the next page starts loading. Defaults to 5.
    ///   - pageWindow: Keep at most this many pages, dropping the oldest (for endless feeds).
    ///     `nil` (the default), or a number below 1, keeps every page.
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
        self.pageOperation = nil
        self.source = nil
        super.init(
            refreshPolicy: refreshPolicy, lifetimeTrigger: lifetimeTrigger, initialInput: initialInput, clock: clock)
    }

    /// Creates a paging model that loads its pages with `loadPage` instead of an override.
    ///
    /// `loadPage` is a `@Sendable` function, so it runs off the main actor and the compiler
    /// checks that it reads no main-actor state. It is not a method of the model, so releasing
    /// the model cancels the page loads in flight and the model goes at once.
    ///
    /// ```swift
    /// let model = PagingListViewModel<String, Post, String>(prefetchDistance: 10) { topic, cursor in
    ///     let response = try await api.posts(topic: topic, after: cursor)
    ///     return Page(items: response.posts, nextCursor: response.next)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - refreshPolicy: What a refresh does while the first page loads.
    ///   - lifetimeTrigger: When view lifetime events refresh; `nil` for never.
    ///   - initialInput: The input lifetime refreshes use before the first refresh.
    ///   - clock: The clock that measures the content's age.
    ///   - prefetchDistance: How close to the end the next page starts loading. Defaults to 5.
    ///   - pageWindow: Keep at most this many pages, dropping the oldest (for endless feeds).
    ///     `nil` (the default), or a number below 1, keeps every page.
    ///   - deduplicatingBy: A key under which an item already in the list is skipped when pages
    ///     overlap; `nil` keeps every item.
    ///   - loadPage: Loads one page, as ``loadPage(_:cursor:)`` describes: the initial page when
    ///     the cursor is `nil`, otherwise the page at that cursor.
    public init(
        refreshPolicy: RefreshPolicy = .latestWins,
        lifetimeTrigger: LifetimeTrigger? = nil,
        initialInput: Input? = nil,
        clock: any Clock<Duration> = ContinuousClock(),
        prefetchDistance: Int = 5,
        pageWindow: Int? = nil,
        deduplicatingBy: (@Sendable (Element) -> any Hashable & Sendable)? = nil,
        loadPage: @escaping @Sendable (Input, Cursor?) async throws -> Page<Element, Cursor>
    ) {
        let key = deduplicatingBy.map(DeduplicationKey.init)
        self.prefetchDistance = prefetchDistance
        self.pageWindow = pageWindow
        self.deduplicationKey = key
        self.pageOperation = loadPage
        self.source = nil
        super.init(
            refreshPolicy: refreshPolicy, lifetimeTrigger: lifetimeTrigger, initialInput: initialInput, clock: clock
        ) { input in
            try Self.firstList(await loadPage(input, nil), input: input, key: key)
        }
    }

    /// Creates a paging model whose pages come from `source` (see `init(source:)`).
    init(
        refreshPolicy: RefreshPolicy, lifetimeTrigger: LifetimeTrigger?, initialInput: Input?,
        clock: any Clock<Duration>, prefetchDistance: Int, pageWindow: Int?,
        deduplicatingBy key: DeduplicationKey<Element>, source: PagingSourceOperations<Input, Element, Cursor>
    ) {
        self.prefetchDistance = prefetchDistance
        self.pageWindow = pageWindow
        self.deduplicationKey = key
        self.pageOperation = nil
        self.source = source
        super.init(
            refreshPolicy: refreshPolicy, lifetimeTrigger: lifetimeTrigger, initialInput: initialInput, clock: clock)
    }

    deinit {
        nextEnd.shared.shutDown()
        previousEnd.shared.shutDown()
    }

    /// Loads one page for `input`: the initial page when `cursor` is `nil`, otherwise the page
    /// at `cursor` (a next or a previous cursor a page gave). Override it as
    /// `nonisolated override func loadPage(_:cursor:)`, so that it runs off the main actor, or
    /// give the model a `loadPage` function at init instead.
    ///
    /// The initial page need not be the first: a model that opens in the middle (today's
    /// messages) returns that page with a previous cursor, and ``loadPreviousPage()`` loads
    /// the earlier ones.
    ///
    /// - Returns: The page's items and the cursors of the pages around it (`nil`: none that way).
    nonisolated open func loadPage(_ input: Input, cursor: Cursor?) async throws -> Page<Element, Cursor> {
        if let source { return try await source.page(input, cursor, .next).page }
        guard let pageOperation else {
            preconditionFailure("\(Self.self) must override loadPage(_:cursor:) or be created with init(loadPage:)")
        }
        return try await pageOperation(input, cursor)
    }

    /// With a ``PagingSource``, the stored pages are the first state shown, with no blank
    /// `loading` before them.
    open override var defersLoading: Bool { source != nil || super.defersLoading }

    /// With a ``PagingSource``: the stored initial page, when the model shows nothing yet, then
    /// the initial page from the source (or, when the stored one is current, the list shown).
    /// Otherwise the initial page ``loadPage(_:cursor:)`` loads. With an ``anchor`` in the list
    /// shown, the pages after the initial one load until the anchor's, which keeps its place.
    open override func producer(for input: Input) -> ContentProducer<PagedList<Element, Cursor>> {
        let keepPlace = placeKeeper(for: input)
        if let source { return sourceProducer(source, for: input, keepingPlace: keepPlace) }
        guard let keepPlace else { return super.producer(for: input) }
        let (loadPage, key) = (pageFunction(.next), deduplicationKey)
        return .load {
            try await keepPlace(
                Self.firstList(await loadPage(input, nil).page, input: input, key: key, isChecked: true)
            )
            .list
        }
    }

    /// Loads the first page. Paging models override ``loadPage(_:cursor:)`` instead.
    public final override nonisolated func load(_ input: Input) async throws -> PagedList<Element, Cursor> {
        try Self.firstList(await loadPage(input, cursor: nil), input: input, key: deduplicationKey)
    }

    /// What loads a page at `direction`'s end, checked for repeated keys (the kit's rule for
    /// duplicate ids): the source's (stored, or fetched and stored, with what of it could not be
    /// served; a store serves each id once), the `init(loadPage:)` function, or
    /// ``loadPage(_:cursor:)`` on the model, which it holds only for the call.
    func pageFunction(_ direction: PagingDirection)
        -> @Sendable (Input, Cursor?) async throws -> ServedPage<Element, Cursor>
    {
        if let source { return { input, cursor in try await source.page(input, cursor, direction) } }
        let key = deduplicationKey
        if let pageOperation {
            return { input, cursor in ServedPage(try Self.checked(await pageOperation(input, cursor), key: key)) }
        }
        return { [weak self] input, cursor in
            guard let self else { throw CancellationError() }
            return ServedPage(try Self.checked(await self.loadPage(input, cursor: cursor), key: key))
        }
    }

    /// Cancels the page loads at either end when a refresh starts, publishes their state
    /// changes, and loads on from a list that shows no item but has pages beyond it. An
    /// override must call `super`.
    open override func stateDidChange(
        from oldState: ContentLoadingState<PagedList<Element, Cursor>>,
        to newState: ContentLoadingState<PagedList<Element, Cursor>>
    ) {
        // NB: a refresh starts a new list; a next page of the old one must not land in it.
        if newState.isLoading && !oldState.isLoading {
            cancelNextPage()
            cancelPreviousPage()
        }
        publishPageStates()
        // NB: no row appears to ask for the next page (`loadMoreIfNeeded`): the model asks. A
        // failed page is not retried by itself, nor is a list every item of which was removed,
        // nor one that loaded `pagesLoadedByItself` pages and shows nothing (a server that
        // answers empty pages with new cursors for ever would be asked for ever).
        if let list = newState.content, list.isEmpty, !newState.isLoading, !isShowingEdit,
            list.pagesLoaded < Self.pagesLoadedByItself
        {
            if list.hasMore { loadNextPage() } else if list.hasPrevious { loadPreviousPage() }
        }
    }

    /// How many pages a list that shows no item loads before the model stops loading on by
    /// itself (see ``isEmpty(_:)``): 20.
    static var pagesLoadedByItself: Int { 20 }

    /// Whether `output` counts as empty, which makes the state ``ContentLoadingState/empty``:
    /// a list with no item and no page beyond it at either end. A page that comes back with no
    /// item but a cursor onward (a server that filters its pages, a stored page every item of
    /// which was removed) is not the end: the state is `success`, and the model loads on by
    /// itself until an item shows or the end is reached, for at most 20 pages in all (then
    /// ``loadNextPage()`` goes on). A list shown whose items are all
    /// removed through a store stays `success` with no item and its next page `idle`: the
    /// model does not load on by itself then (a sign-out removes every element while a model is
    /// on screen); ``loadNextPage()`` goes on.
    open override func isEmpty(_ output: PagedList<Element, Cursor>) -> Bool {
        output.isEmpty && !output.hasMore && !output.hasPrevious
    }

    /// `page`, when it holds each key once (with `key`), by the kit's rule for duplicate ids:
    /// a page that repeats a key fails with ``DuplicateIDError``.
    nonisolated static func checked(
        _ page: Page<Element, Cursor>, key: DeduplicationKey<Element>?
    ) throws -> Page<Element, Cursor> {
        if let key { try DuplicateIDError.check(page.items) { key.value(of: $0).base } }
        return page
    }

    /// The list the initial `page` loaded for `input` starts; `page` is checked for repeated
    /// keys unless it is `checked` already (a store serves each id once).
    nonisolated static func firstList(
        _ page: Page<Element, Cursor>, input: Input, key: DeduplicationKey<Element>?, isChecked: Bool = false
    ) throws -> PagedList<Element, Cursor> {
        PagedList(first: isChecked ? page : try checked(page, key: key), origin: PagingOrigin(input: input), key: key)
    }

    /// The items of every page loaded so far (an empty list before the first page).
    public var items: PagedList<Element, Cursor> { content ?? PagedList() }
}
