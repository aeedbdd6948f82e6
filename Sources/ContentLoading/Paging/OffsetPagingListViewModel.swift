/// Offset paging, the special case of cursor paging whose cursor is the offset of the next item.
///
/// Give it a `loadPage` function at init, or override ``loadPage(_:offset:limit:)``, to return
/// up to `limit` items from `offset` and, when the source knows it, the total count (which
/// spares the request that would come back empty when the total is a multiple of the page size).
///
/// It pages both ways: pages sit at multiples of ``pageSize``, the previous page of the one at
/// `offset` is at `offset - pageSize`, and a model can open in the middle by overriding
/// ``initialOffset(for:)`` (the initial page is the one that holds that offset).
///
/// ```swift
/// let model = OffsetPagingListViewModel<String, Product>(pageSize: 25) { query, offset, limit in
///     let response = try await api.products(query, offset: offset, limit: limit)
///     return OffsetPage(items: response.items, totalCount: response.total)
/// }
/// ```
open class OffsetPagingListViewModel<Input: Sendable, Element: Sendable>: PagingListViewModel<Input, Element, Int> {
    /// How many items a page requests: the `pageSize` given at init, or 1 for a number below 1.
    public let pageSize: Int
    /// The `init(loadPage:)` function, or `nil` for a subclass that overrides ``loadPage(_:offset:limit:)``.
    private let offsetOperation: (@Sendable (Input, Int, Int) async throws -> OffsetPage<Element>)?

    /// Creates an offset paging model whose pages come from an override of
    /// ``loadPage(_:offset:limit:)``, `pageSize` items each (a number below 1 is taken as 1: no
    /// offset follows a page of no items); the other parameters are those of
    /// ``PagingListViewModel/init(refreshPolicy:lifetimeTrigger:initialInput:clock:prefetchDistance:pageWindow:deduplicatingBy:)``.
    public init(
        pageSize: Int = 25,
        refreshPolicy: RefreshPolicy = .latestWins,
        lifetimeTrigger: LifetimeTrigger? = nil,
        initialInput: Input? = nil,
        clock: any Clock<Duration> = ContinuousClock(),
        prefetchDistance: Int = 5,
        pageWindow: Int? = nil,
        deduplicatingBy: (@Sendable (Element) -> any Hashable & Sendable)? = nil
    ) {
        // NB: clamped, not a precondition: an app's 0 or a negative size from outside (a
        // setting, a server's suggestion) stopped the process.
        self.pageSize = max(1, pageSize)
        self.offsetOperation = nil
        super.init(
            refreshPolicy: refreshPolicy, lifetimeTrigger: lifetimeTrigger, initialInput: initialInput, clock: clock,
            prefetchDistance: prefetchDistance, pageWindow: pageWindow, deduplicatingBy: deduplicatingBy)
    }

    /// Creates an offset paging model that loads its pages with `loadPage(input, offset, limit)`
    /// instead of an override: a `@Sendable` function, so it runs off the main actor, and the
    /// model can be released while a page loads. The list opens at offset 0.
    ///
    /// - Parameters:
    ///   - pageSize: How many items a page requests. Defaults to 25. A number below 1 is taken
    ///     as 1 (no offset follows a page of no items).
    ///   - refreshPolicy: What a refresh does while the first page loads.
    ///   - lifetimeTrigger: When view lifetime events refresh; `nil` for never.
    ///   - initialInput: The input lifetime refreshes use before the first refresh.
    ///   - clock: The clock that measures the content's age.
    ///   - prefetchDistance: How close to the end the next page starts loading. Defaults to 5.
    ///   - pageWindow: Keep at most this many pages, dropping the oldest (for endless feeds).
    ///     `nil` (the default), or a number below 1, keeps every page.
    ///   - deduplicatingBy: A key under which an item already in the list is skipped when pages
    ///     overlap; `nil` keeps every item.
    ///   - loadPage: Loads up to `limit` items from `offset` for the input.
    public init(
        pageSize: Int = 25,
        refreshPolicy: RefreshPolicy = .latestWins,
        lifetimeTrigger: LifetimeTrigger? = nil,
        initialInput: Input? = nil,
        clock: any Clock<Duration> = ContinuousClock(),
        prefetchDistance: Int = 5,
        pageWindow: Int? = nil,
        deduplicatingBy: (@Sendable (Element) -> any Hashable & Sendable)? = nil,
        loadPage: @escaping @Sendable (Input, _ offset: Int, _ limit: Int) async throws -> OffsetPage<Element>
    ) {
        let pageSize = max(1, pageSize)
        self.pageSize = pageSize
        self.offsetOperation = loadPage
        super.init(
            refreshPolicy: refreshPolicy, lifetimeTrigger: lifetimeTrigger, initialInput: initialInput, clock: clock,
            prefetchDistance: prefetchDistance, pageWindow: pageWindow, deduplicatingBy: deduplicatingBy
        ) { input, cursor in
            let offset = cursor ?? 0
            let page = try await loadPage(input, offset, pageSize)
            return .offset(page.items, at: offset, limit: pageSize, totalCount: page.totalCount)
        }
    }

    /// Loads up to `limit` items starting at `offset`. Override it as
    /// `nonisolated override func loadPage(_:offset:limit:)`, so that it runs off the main
    /// actor, or give the model a `loadPage` function at init instead.
    nonisolated open func loadPage(_ input: Input, offset: Int, limit: Int) async throws -> OffsetPage<Element> {
        guard let offsetOperation else {
            preconditionFailure(
                "\(Self.self) must override loadPage(_:offset:limit:) or be created with init(loadPage:)")
        }
        return try await offsetOperation(input, offset, limit)
    }

    /// The offset the list opens at for `input`: its initial page is the page that holds it.
    /// Override it to open in the middle; the default is 0.
    nonisolated open func initialOffset(for input: Input) -> Int { 0 }

    /// Turns the offset page into a cursor page. Offset models override
    /// ``loadPage(_:offset:limit:)`` instead.
    public final override nonisolated func loadPage(_ input: Input, cursor: Int?) async throws -> Page<Element, Int> {
        // NB: pages sit at multiples of the page size, so a previous page never overlaps.
        let offset = cursor ?? (max(0, initialOffset(for: input)) / pageSize * pageSize)
        let page = try await loadPage(input, offset: offset, limit: pageSize)
        return .offset(page.items, at: offset, limit: pageSize, totalCount: page.totalCount)
    }
}

/// A page of offset paging: the items and, when known, how many there are in all.
public struct OffsetPage<Element: Sendable>: Sendable {
    /// The items from the requested offset.
    public var items: [Element]
    /// How many items the whole list has, or `nil` when the source does not say.
    public var totalCount: Int?

    /// Creates a page.
    public init(items: [Element], totalCount: Int?) {
        self.items = items
        self.totalCount = totalCount
    }
}
