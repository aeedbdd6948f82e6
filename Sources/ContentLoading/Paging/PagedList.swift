import ContentLoadingSupport

/// The items of every page loaded so far, as one list, with the cursors of the pages on
/// either side.
///
/// It is the content of a ``PagingListViewModel``: a `RandomAccessCollection` of the items, so
/// it is `empty` when there are none. A refresh replaces it whole; a next page is appended, a
/// previous page prepended.
///
/// Appending a page costs only that page: the versions of a list share one append-only
/// buffer, each reading its own prefix, so paging through N pages is linear in N, even though
/// the model keeps the previous version for ``ContentLoadingViewModel/itemDifference``.
/// Replacing items (an element saved elsewhere, ``PagingListViewModel/replaceItem(_:)``) costs
/// only those items too: the newest version records each replacement beside the item, and
/// older versions still read the items they had. Prepending a page, dropping pages from the
/// start, or removing an item copies the loaded items (a page window bounds them).
///
/// With a page window, pages dropped from one end are remembered with the request that loaded
/// them, so paging back that way loads them again. ``itemsBefore`` says how many places come
/// before the first item held: item `i` is at place `itemsBefore + i`, which stays put as pages
/// load and drop at either end, so a UI that keeps an absolute position can follow.
public struct PagedList<Element: Sendable, Cursor: Sendable>: RandomAccessCollection, Sendable {
    /// How many pages were loaded into this list, including any dropped by a page window.
    public private(set) var pagesLoaded: Int

    /// The first page's load: identifies this list across appends and carries its input.
    let origin: PagingOrigin
    var storage: PageStorage<Element, Cursor>
    /// How much of `storage` this version sees.
    var extent: PageStorage<Element, Cursor>.Extent
    /// The pages a window (or a refresh that kept the reader's place) dropped from the start,
    /// the nearest first.
    var droppedBefore: DroppedPages<Cursor>?
    /// The pages a window dropped from the end, the nearest first.
    private var droppedAfter: DroppedPages<Cursor>?
    /// The newest ``Page/storedAt`` of the pages that joined it (see `PagedList+StoredAt`).
    var newestStoredAt: UInt64?
    /// The initial page as it was when a page window dropped it: its items' keys and its record
    /// (see `PagedList+InitialPage`).
    var droppedInitialPage: (keys: [DeduplicationKey<Element>.Value], record: PageRecord<Cursor>)?

    init(
        first page: Page<Element, Cursor>, origin: PagingOrigin, key: DeduplicationKey<Element>?,
        requested request: PageLocator<Cursor> = .initial
    ) {
        pagesLoaded = 0
        itemsBefore = 0
        self.origin = origin
        storage = PageStorage(tracksKeys: key != nil)
        extent = .init(elements: 0, pages: 0)
        _ = append(page, requested: request, window: nil, key: key)
    }

    /// An empty list with no page on either side.
    init() {
        pagesLoaded = 0
        itemsBefore = 0
        origin = PagingOrigin(input: ())
        storage = PageStorage(tracksKeys: false)
        extent = .init(elements: 0, pages: 0)
    }

    /// The cursor of the next page, or `nil` when there is none (or the next page is the
    /// initial one, which a window dropped: ``hasMore`` says whether there is one).
    public var nextCursor: Cursor? { nextRequest?.cursor }
    /// The cursor of the previous page, or `nil` when there is none (or the previous page is
    /// the initial one, which a window dropped: ``hasPrevious`` says whether there is one).
    public var previousCursor: Cursor? { previousRequest?.cursor }

    /// Whether another page can be loaded after the last one.
    public var hasMore: Bool { nextRequest != nil }
    /// Whether another page can be loaded before the first one: the source gave a previous
    /// cursor, or a page window dropped pages from the start.
    public var hasPrevious: Bool { previousRequest != nil }
    /// How many places come before the first item held (Android Paging's `itemsBefore`): the
    /// items a page window dropped before it; 0 without a window. Loading the previous pages
    /// brings them back.
    ///
    /// After a refresh that kept the reader's place (``PagingListViewModel/anchor``) it is the
    /// number of places that keep the anchor where it was, which can differ from the number of
    /// items before the list; loading the previous pages counts it down (never below 0).
    public internal(set) var itemsBefore: Int

    /// How the next page is requested: the nearest page a window dropped from the end, or the
    /// last page's next cursor.
    var nextRequest: PageLocator<Cursor>? {
        if let droppedAfter { return droppedAfter.request }
        guard extent.pages > 0 else { return nil }
        return storage.page(at: extent.pages - 1).nextCursor.map(PageLocator.cursor)
    }

    /// How the previous page is requested: the nearest page a window dropped from the start,
    /// or the first page's previous cursor.
    var previousRequest: PageLocator<Cursor>? {
        if let droppedBefore { return droppedBefore.request }
        guard extent.pages > 0 else { return nil }
        return storage.page(at: 0).previousCursor.map(PageLocator.cursor)
    }

    /// Every item, oldest page first, copied into an array (O(n): iterate the list itself
    /// where you can).
    public var items: [Element] { Array(self) }

    /// The position of the first item.
    public var startIndex: Int { 0 }
    /// The position after the last item.
    public var endIndex: Int { extent.elements }
    /// The item at `position`.
    public subscript(position: Int) -> Element {
        precondition(position >= 0 && position < extent.elements, "Index out of range")
        return storage.element(at: position, seeing: extent.edits)
    }

    /// Appends `page`, loaded by `request` (by default the list's next request), skipping items
    /// whose key is already in the list, then drops the first pages beyond `window`.
    ///
    /// - Returns: Whether pages were dropped from the start.
    @discardableResult
    mutating func append(
        _ page: Page<Element, Cursor>, requested request: PageLocator<Cursor>? = nil, window: Int?,
        key: DeduplicationKey<Element>?
    ) -> Bool {
        let record = Self.record(of: page, requested: request ?? nextRequest ?? .initial)
        newestStoredAt = Self.newest(newestStoredAt, page.storedAt)
        if let appended = storage.appendInPlace(page.items, as: record, after: extent, key: key) {
            extent = appended
        } else {
            // NB: the copy folds this version's edits in: its extent counts none.
            (storage, extent) = storage.copy(upTo: extent, key: key)
            extent = storage.appendInPlace(page.items, as: record, after: extent, key: key)!
        }
        // NB: the page loaded is the nearest one dropped from the end, if any.
        droppedAfter = droppedAfter?.below
        pagesLoaded += 1
        guard let window, window > 0, extent.pages > window else { return false }
        dropFirst(extent.pages - window, key: key)
        return true
    }

    /// Prepends `page`, loaded by `request` (by default the list's previous request), skipping
    /// items whose key is already in the list, then drops the last pages beyond `window`.
    ///
    /// - Returns: Whether pages were dropped from the end.
    @discardableResult
    mutating func prepend(
        _ page: Page<Element, Cursor>, requested request: PageLocator<Cursor>? = nil, window: Int?,
        key: DeduplicationKey<Element>?
    ) -> Bool {
        let record = Self.record(of: page, requested: request ?? previousRequest ?? .initial)
        newestStoredAt = Self.newest(newestStoredAt, page.storedAt)
        // NB: a page dropped in part (by a refresh that kept the reader's place) adds only the
        // items it dropped; the rest of it is still in the list.
        let items = droppedBefore?.keepsFirst.map { Array(page.items.prefix($0)) } ?? page.items
        var added = items
        (storage, extent) = storage.editing(extent, key: key) { elements, pages in
            if let key {
                var seen = Set(elements.map(key.value))
                added = added.filter { seen.insert(key.value(of: $0)).inserted }
            }
            elements.insert(contentsOf: added, at: 0)
            pages.insert(record.counting(added.count), at: 0)
        }
        droppedBefore = droppedBefore?.below
        itemsBefore = Swift.max(0, itemsBefore - added.count)
        pagesLoaded += 1
        guard let window, window > 0, extent.pages > window else { return false }
        dropLast(extent.pages - window, key: key)
        return true
    }

    /// What the list keeps of `page`, loaded by `request`.
    private static func record(of page: Page<Element, Cursor>, requested request: PageLocator<Cursor>)
        -> PageRecord<Cursor>
    {
        PageRecord(
            count: page.items.count, request: request, previousCursor: page.previousCursor,
            nextCursor: page.nextCursor, storedAt: page.storedAt)
    }

    /// Drops the first `count` pages, remembering how to load them again.
    private mutating func dropFirst(_ count: Int, key: DeduplicationKey<Element>?) {
        let dropped = storage.pages(0..<count)
        noteInitialPage(among: dropped, from: 0, key: key)
        for record in dropped { droppedBefore = DroppedPages(record, below: droppedBefore) }
        itemsBefore += dropped.reduce(0) { $0 + $1.count }
        (storage, extent) = storage.editing(extent, key: key) { elements, pages in
            elements.removeFirst(dropped.reduce(0) { $0 + $1.count })
            pages.removeFirst(count)
        }
    }

    /// Drops the last `count` pages, remembering how to load them again. The storage stays:
    /// this version sees less of it.
    private mutating func dropLast(_ count: Int, key: DeduplicationKey<Element>?) {
        let dropped = storage.pages(extent.pages - count..<extent.pages)
        let kept = extent.elements - dropped.reduce(0) { $0 + $1.count }
        noteInitialPage(among: dropped, from: kept, key: key)
        for record in dropped.reversed() { droppedAfter = DroppedPages(record, below: droppedAfter) }
        extent = .init(elements: kept, pages: extent.pages - count)
    }
}

/// Identifies the load of a list's first page and keeps the input it was loaded for.
final class PagingOrigin: Sendable {
    let input: any Sendable
    init(input: any Sendable) { self.input = input }
}

/// How a paging model recognises an item it already has.
struct DeduplicationKey<Element>: Sendable {
    /// A key value; sound to send because every key it wraps is `Sendable`.
    struct Value: Hashable, @unchecked Sendable {
        let base: AnyHashable
    }

    let key: @Sendable (Element) -> any Hashable & Sendable
    /// Whether the key is the element's id, so that a list finds an id through its keys.
    let isID: Bool

    init(_ key: @escaping @Sendable (Element) -> any Hashable & Sendable) {
        self.key = key
        isID = false
    }

    func value(of element: Element) -> Value { Value(base: AnyHashable(key(element))) }
}

extension DeduplicationKey where Element: Identifiable {
    /// The key of the element with `id` (when ``isID``).
    func value(ofID id: Element.ID) -> Value { Value(base: AnyHashable(id)) }
}

extension DeduplicationKey where Element: Identifiable & Sendable, Element.ID: Sendable {
    /// The element's id.
    static var id: DeduplicationKey { DeduplicationKey(key: { $0.id }, isID: true) }

    private init(key: @escaping @Sendable (Element) -> any Hashable & Sendable, isID: Bool) {
        self.key = key
        self.isID = isID
    }
}
