import ContentLoading
import Foundation

extension PagingSource where Input == Void, Element: Codable, Element.ID: CacheKey, Cursor: Codable {
    /// Pages kept in `store` under `key`: a ``PagingListViewModel`` over them opens with the
    /// pages stored (offline too), in order, with their cursors, and pages on through the
    /// stored pages without a request, then from `pagesIfChanged`, storing each page it fetches.
    ///
    /// ```swift
    /// let feed = PagingListViewModel(source: .persisted(in: contacts, key: "feed") { cursor, validators in
    ///     try await api.contacts(after: cursor, ifNoneMatch: validators.entityTag)
    /// })
    /// ```
    ///
    /// - A page, its cursors and its elements are written in one transaction: the file holds
    ///   all of them or none, whenever the app is killed. Each element is stored once (see
    ///   ``ElementStore``), so a save through the store reaches the stored pages, every model
    ///   showing them and every other list holding the element.
    /// - A page is stored next to the stored page whose cursor asked for it. A page whose
    ///   cursor towards a neighbour changed (a refreshed initial page with another next cursor)
    ///   takes the stored pages beyond it on that side with it: the stored pages stay
    ///   contiguous, and the app keeps no cursors of its own.
    /// - A refresh asks for the initial page with the validators stored with it: "not modified"
    ///   (``FetchResult/notModified(_:)``) keeps the list and writes nothing.
    ///
    /// - Parameters:
    ///   - store: The store the pages' elements live in; its file keeps the pages.
    ///   - key: The list's name in the store.
    ///   - pagesIfChanged: Fetches the page at a cursor (`nil`: the initial page), or answers
    ///     "not modified" when the validators (of the stored initial page; empty otherwise)
    ///     are current.
    public static func persisted(
        in store: ElementStore<Element>, key: String,
        pagesIfChanged: @escaping @Sendable (Cursor?, Validators) async throws -> FetchResult<Page<Element, Cursor>>
    ) -> PagingSource {
        let pages = PersistedPages(store: store, key: key, fetch: pagesIfChanged)
        return PagingSource(
            storedInitialPage: { _ in try await pages.stored(nil) },
            refreshedInitialPage: { _ in try await pages.refreshedInitialPage() },
            page: { _, cursor, direction in try await pages.page(cursor, direction) },
            listen: { listener in pages.listen(listener) })
    }

    /// Pages kept in `store` under `key` (see the `pagesIfChanged` variant), for a source that
    /// always returns the whole page.
    ///
    /// ```swift
    /// let feed = PagingListViewModel(source: .persisted(in: contacts, key: "feed") { cursor in
    ///     try await api.contacts(after: cursor)
    /// })
    /// ```
    public static func persisted(
        in store: ElementStore<Element>, key: String,
        pages: @escaping @Sendable (Cursor?) async throws -> Page<Element, Cursor>
    ) -> PagingSource {
        persisted(in: store, key: key) { cursor, _ in .modified(try await pages(cursor), .none) }
    }
}
