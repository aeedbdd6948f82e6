import ContentLoadingSupport

/// The items of every page loaded so far, as one list, with the cursor of the next page.
///
/// It is the content of a ``PagingListViewModel``: a `RandomAccessCollection` of the items, so
/// it is `empty` when there are none. A refresh replaces it whole; a next page is appended.
///
/// Appending a page costs only that page: the versions of a list share one append-only
/// buffer, each reading its own prefix, so paging through N pages is linear in N, even though
/// the model keeps the previous version for ``ContentLoadingViewModel/itemDifference``.
public struct PagedList<Element: Sendable, Cursor: Sendable>: RandomAccessCollection, Sendable {
    /// The cursor of the next page, or `nil` when the last page is loaded.
    public private(set) var nextCursor: Cursor?
    /// How many pages were loaded into this list, including any dropped by a page window.
    public private(set) var pagesLoaded: Int

    /// The first page's load: identifies this list across appends and carries its input.
    let origin: PagingOrigin
    private var storage: PageStorage<Element>
    /// How much of `storage` this version sees.
    private var extent: PageStorage<Element>.Extent

    init(first page: Page<Element, Cursor>, origin: PagingOrigin, key: DeduplicationKey<Element>?) {
        nextCursor = nil
        pagesLoaded = 0
        self.origin = origin
        storage = PageStorage(tracksKeys: key != nil)
        extent = .init(elements: 0, pages: 0)
        append(page, window: nil, key: key)
    }

    /// An empty list with no next page.
    init() {
        nextCursor = nil
        pagesLoaded = 0
        origin = PagingOrigin(input: ())
        storage = PageStorage(tracksKeys: false)
        extent = .init(elements: 0, pages: 0)
    }

    /// Whether another page can be loaded.
    public var hasMore: Bool { nextCursor != nil }

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
        return storage.element(at: position)
    }

    /// Appends `page` (skipping items whose key is already in the list), then drops the
    /// oldest pages beyond `window`.
    mutating func append(_ page: Page<Element, Cursor>, window: Int?, key: DeduplicationKey<Element>?) {
        if let appended = storage.appendInPlace(page.items, after: extent, key: key) {
            extent = appended
        } else {
            storage = storage.copy(upTo: extent, key: key)
            extent = storage.appendInPlace(page.items, after: extent, key: key)!
        }
        nextCursor = page.nextCursor
        pagesLoaded += 1
        if let window, window > 0, extent.pages > window {
            (storage, extent) = storage.dropping(pages: extent.pages - window, of: extent, key: key)
        }
    }

    /// Replaces the item at `index`.
    mutating func replace(at index: Int, with element: Element, key: DeduplicationKey<Element>?) {
        (storage, extent) = storage.editing(extent, key: key) { elements, _ in elements[index] = element }
    }

    /// Removes the item at `index`, keeping the page sizes in step.
    mutating func remove(at index: Int, key: DeduplicationKey<Element>?) {
        (storage, extent) = storage.editing(extent, key: key) { elements, pageSizes in
            elements.remove(at: index)
            var start = 0
            for page in pageSizes.indices {
                if index < start + pageSizes[page] {
                    pageSizes[page] -= 1
                    return
                }
                start += pageSizes[page]
            }
        }
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

    func value(of element: Element) -> Value { Value(base: AnyHashable(key(element))) }
}
