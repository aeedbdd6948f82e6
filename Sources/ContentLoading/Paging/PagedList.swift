/// The items of every page loaded so far, as one list, with the cursor of the next page.
///
/// It is the content of a ``PagingListViewModel``: a `RandomAccessCollection` of the items, so
/// it is `empty` when there are none. A refresh replaces it whole; a next page is appended.
public struct PagedList<Element: Sendable, Cursor: Sendable>: RandomAccessCollection, Sendable {
    /// Every item, oldest page first.
    public private(set) var items: [Element]
    /// The cursor of the next page, or `nil` when the last page is loaded.
    public private(set) var nextCursor: Cursor?
    /// How many pages were loaded into this list, including any dropped by a page window.
    public private(set) var pagesLoaded: Int

    /// The sizes of the pages kept, oldest first.
    private(set) var pageSizes: [Int]
    /// The first page's load: identifies this list across appends and carries its input.
    let origin: PagingOrigin
    /// Keys of the items kept, when the model de-duplicates.
    private var keys: Set<DeduplicationKey<Element>.Value>?

    init(first page: Page<Element, Cursor>, origin: PagingOrigin, key: DeduplicationKey<Element>?) {
        items = []
        nextCursor = nil
        pagesLoaded = 0
        pageSizes = []
        self.origin = origin
        keys = key.map { _ in [] }
        append(page, window: nil, key: key)
    }

    /// Whether another page can be loaded.
    public var hasMore: Bool { nextCursor != nil }

    /// The position of the first item.
    public var startIndex: Int { items.startIndex }
    /// The position after the last item.
    public var endIndex: Int { items.endIndex }
    /// The item at `position`.
    public subscript(position: Int) -> Element { items[position] }

    /// Appends `page` (skipping items whose key is already in the list), then drops the
    /// oldest pages beyond `window`.
    mutating func append(_ page: Page<Element, Cursor>, window: Int?, key: DeduplicationKey<Element>?) {
        var added = page.items
        if let key, keys != nil {
            added = added.filter { keys!.insert(key.value(of: $0)).inserted }
        }
        items.append(contentsOf: added)
        pageSizes.append(added.count)
        nextCursor = page.nextCursor
        pagesLoaded += 1
        if let window, window > 0 {
            while pageSizes.count > window { dropOldestPage(key: key) }
        }
    }

    /// Replaces the item at `index`.
    mutating func replace(at index: Int, with element: Element, key: DeduplicationKey<Element>?) {
        if let key, keys != nil {
            keys!.remove(key.value(of: items[index]))
            keys!.insert(key.value(of: element))
        }
        items[index] = element
    }

    /// Removes the item at `index`, keeping the page sizes in step.
    mutating func remove(at index: Int, key: DeduplicationKey<Element>?) {
        if let key, keys != nil { keys!.remove(key.value(of: items[index])) }
        items.remove(at: index)
        var start = 0
        for page in pageSizes.indices {
            if index < start + pageSizes[page] {
                pageSizes[page] -= 1
                return
            }
            start += pageSizes[page]
        }
    }

    private mutating func dropOldestPage(key: DeduplicationKey<Element>?) {
        let size = pageSizes.removeFirst()
        if let key, keys != nil {
            for element in items.prefix(size) { keys!.remove(key.value(of: element)) }
        }
        items.removeFirst(size)
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
