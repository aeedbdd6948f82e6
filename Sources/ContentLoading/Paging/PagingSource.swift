import ContentLoadingSupport

/// Where a ``PagingListViewModel`` gets its pages when a store keeps them: the pages it stored
/// (to open with, offline too, and to page through without a request), the source behind
/// them, and the changes made to their elements elsewhere.
///
/// A store makes it; ContentLoadingRepository's `PagingSource.persisted(in:key:pages:)` keeps
/// the pages in an `ElementStore`:
///
/// ```swift
/// let feed = PagingListViewModel(source: .persisted(in: contacts, key: "feed") { cursor in
///     try await api.contacts(after: cursor)          // a Page<Contact, String>
/// })
/// ```
public struct PagingSource<Input: Sendable, Element: Identifiable & Sendable, Cursor: Sendable>: Sendable
where Element.ID: Sendable {
    /// The initial page as stored; `nil` when none is stored.
    package let storedInitialPage: @Sendable (Input) async throws -> ServedPage<Element, Cursor>?
    /// The initial page from the source, stored; `nil` when the stored one is current (the
    /// source answered "not modified": nothing was written).
    package let refreshedInitialPage: @Sendable (Input) async throws -> ServedPage<Element, Cursor>?
    /// The page at a cursor (`nil`: the initial page) joining the list at an end: the stored
    /// one when there is one, otherwise the source's, stored next to the page that asked for it.
    package let page: @Sendable (Input, Cursor?, PagingDirection) async throws -> ServedPage<Element, Cursor>
    /// Whether two inputs load the same stored list (a list shown for one is the other's).
    package let isSameList: @Sendable (Input, Input) -> Bool
    /// Whether two cursors ask for the same page (as the store keeps them).
    package let isSameCursor: @Sendable (Cursor, Cursor) -> Bool
    /// Adds a listener for the changes made to elements elsewhere (saves and removals through
    /// the store, pages other lists stored), run on the main actor; the listener returns
    /// `false` once it is gone.
    package let listen: @Sendable (_ listener: @escaping Listener) -> Void

    /// Hears a change on the main actor, where the model shows it.
    package typealias Listener = @MainActor @Sendable (PagingSourceChange<Element>) -> Bool

    package init(
        storedInitialPage: @escaping @Sendable (Input) async throws -> ServedPage<Element, Cursor>?,
        refreshedInitialPage: @escaping @Sendable (Input) async throws -> ServedPage<Element, Cursor>?,
        page: @escaping @Sendable (Input, Cursor?, PagingDirection) async throws -> ServedPage<Element, Cursor>,
        isSameList: @escaping @Sendable (Input, Input) -> Bool = { _, _ in true },
        isSameCursor: @escaping @Sendable (Cursor, Cursor) -> Bool = { isSame($0, $1) },
        listen: @escaping @Sendable (_ listener: @escaping Listener) -> Void
    ) {
        self.storedInitialPage = storedInitialPage
        self.refreshedInitialPage = refreshedInitialPage
        self.page = page
        self.isSameList = isSameList
        self.isSameCursor = isSameCursor
        self.listen = listen
    }
}

/// A page as a store serves it (with the store's version it holds every change up to: see
/// ``Page/storedAt``), and what of it could not be served (an element whose row does not read,
/// an id another page holds too), which the model shows as an error beside the page.
package struct ServedPage<Element: Sendable, Cursor: Sendable>: Sendable {
    package var page: Page<Element, Cursor>
    package var problem: (any Error)?

    package init(_ page: Page<Element, Cursor>, problem: (any Error)? = nil) {
        self.page = page
        self.problem = problem
    }
}

/// Elements saved, or one removed (or all), somewhere other than the paging model that hears it.
package struct PagingSourceChange<Element: Identifiable & Sendable>: Sendable where Element.ID: Sendable {
    package var saved: [Element]
    package var removed: Element.ID?
    /// Whether every element was removed: the model leaves out every item but those a newer
    /// write of its list's pages placed there.
    package var removesAll: Bool
    /// Whether a newer change of the element with an id came before this one (two writers of
    /// one element may be heard in either order): a save of that element is left out where it
    /// is applied.
    package let isSuperseded: @Sendable (Element.ID) -> Bool
    /// Whether a write of the pages of the list an input loads placed the element with an id
    /// there after this change: a removal does not take it out of that list. (A save puts no
    /// element back in a list: a removal overtaken by one still applies.)
    package let isPlacedAgain: @Sendable (Element.ID, _ input: any Sendable) -> Bool
    /// The store's version of the write that made the change, when it has one: a page that
    /// write or a later one stored holds it already.
    package let version: UInt64?

    package init(
        saved: [Element], removed: Element.ID?, removesAll: Bool = false,
        isSuperseded: @escaping @Sendable (Element.ID) -> Bool = { _ in false },
        isPlacedAgain: @escaping @Sendable (Element.ID, _ input: any Sendable) -> Bool = { _, _ in false },
        version: UInt64? = nil
    ) {
        self.version = version
        self.saved = saved
        self.removed = removed
        self.removesAll = removesAll
        self.isSuperseded = isSuperseded
        self.isPlacedAgain = isPlacedAgain
    }

    /// The change without the saves a newer change of their elements brought before it.
    package func current() -> PagingSourceChange {
        var current = self
        current.saved.removeAll { isSuperseded($0.id) }
        return current
    }
}
