import ContentLoading
import Foundation

extension PagingSource where Element: Codable, Element.ID: CacheKey, Cursor: Codable {
    /// Pages kept in `store`, one stored list per input under the key `key` gives it: a
    /// ``PagingListViewModel`` over them opens with the pages stored for its input (offline
    /// too), in order, with their cursors, and pages on through the stored pages without a
    /// request, then from `pagesIfChanged`, storing each page it fetches.
    ///
    /// ```swift
    /// let results = PagingListViewModel<String, Contact, String>(
    ///     source: .persisted(in: contacts, key: { "search/\($0)" }) { query, cursor, validators in
    ///         try await api.search(query, after: cursor, ifNoneMatch: validators.entityTag)
    ///     })
    /// await results.refresh("ada").completed()   // the pages stored for "ada", then the server's
    /// ```
    ///
    /// - A page, its cursors and its elements are written in one transaction: the file holds
    ///   all of them or none, whenever the app is killed. Each element is stored once (see
    ///   ``ElementStore``), so a save through the store reaches the stored pages of every
    ///   input, every model showing them and every other list holding the element.
    /// - A page is stored next to the stored page whose cursor asked for it. A page whose
    ///   cursor towards a neighbour changed (a refreshed initial page with another next cursor)
    ///   takes the stored pages beyond it on that side with it (never those between it and the
    ///   initial page): the stored pages stay contiguous, and the app keeps no cursors of its own.
    /// - A refresh asks for the initial page with the validators stored with it: "not modified"
    ///   (``FetchResult/notModified(_:)``) keeps the list and writes nothing. A page whose
    ///   validators say `no-store` is served and not written; an initial one removes the list's
    ///   stored pages.
    /// - What of a stored or fetched page cannot be served (an element row that does not
    ///   decode or is missing, an id another page of the list holds) is a ``CacheError``
    ///   naming the list and the id, beside the rest of the page, which joins the list.
    ///
    /// - A stored page beyond the initial page joins the list as stored, however old, unless
    ///   `maxAge` is given: one fetched longer ago than that (on the store's clock) is asked of
    ///   the source again when it joins the list, with the validators stored with it. "Not
    ///   modified" serves it as stored and writes nothing (the store remembers, in memory, that
    ///   the page was confirmed: it joins without a request until it is older than `maxAge`
    ///   again, counted from then, or the app relaunches); a page the source gives is stored in
    ///   its place (a page whose ids or onward cursor changed takes the stored pages beyond it
    ///   with it, so those are fetched too); when the source cannot be reached, the stored page
    ///   joins the list with the error beside it.
    ///
    /// - Parameters:
    ///   - store: The store the pages' elements live in; its file keeps the pages.
    ///   - key: The name in the store of the list an input loads. Inputs with one name share
    ///     their stored pages.
    ///   - maxAge: How old a stored page beyond the initial page may be and still join the
    ///     list without a request. Defaults to `nil`: any age (the initial page is asked for at
    ///     every refresh).
    ///   - pagesIfChanged: Fetches the page of an input at a cursor (`nil`: the initial page),
    ///     or answers "not modified" when the validators (of the stored page asked for again:
    ///     the initial page, or one older than `maxAge`; empty otherwise) are current.
    public static func persisted(
        in store: ElementStore<Element>, key: @escaping @Sendable (Input) -> String,
        revalidatingPagesOlderThan maxAge: Duration? = nil,
        pagesIfChanged:
            @escaping @Sendable (Input, Cursor?, Validators) async throws -> FetchResult<Page<Element, Cursor>>
    ) -> PagingSource {
        let pages: @Sendable (Input) -> PersistedPages<Element, Cursor> = { input in
            PersistedPages(store: store, key: key(input), maxAge: maxAge) { cursor, validators in
                try await pagesIfChanged(input, cursor, validators)
            }
        }
        return PagingSource(
            storedInitialPage: { input in try await pages(input).stored(nil) },
            refreshedInitialPage: { input in try await pages(input).refreshedInitialPage() },
            page: { input, cursor, direction in try await pages(input).page(cursor, direction) },
            isSameList: { key($0) == key($1) },
            isSameCursor: { first, second in
                guard let first = try? PersistedPages<Element, Cursor>.encoded(first) else { return false }
                return first == (try? PersistedPages<Element, Cursor>.encoded(second))
            },
            listen: { [type = store.type] listener in
                // NB: the store keeps the listener: what it holds must not hold the store.
                PersistedPages<Element, Cursor>.listen(
                    to: store, listKey: { ($0 as? Input).map { DiskCache.pagesKey(type: type, key: key($0)) } },
                    listener)
            })
    }

    /// Pages kept in `store`, one stored list per input (see the `pagesIfChanged` variant),
    /// for a source that always returns the whole page.
    ///
    /// ```swift
    /// let results = PagingListViewModel<String, Contact, String>(
    ///     source: .persisted(in: contacts, key: { "search/\($0)" }) { query, cursor in
    ///         try await api.search(query, after: cursor)
    ///     })
    /// ```
    ///
    /// - Parameters:
    ///   - store: The store the pages' elements live in; its file keeps the pages.
    ///   - key: The name in the store of the list an input loads.
    ///   - maxAge: How old a stored page beyond the initial page may be and still join the
    ///     list without a request (see the `pagesIfChanged` variant). Defaults to `nil`: any age.
    ///   - pages: Fetches the page of an input at a cursor (`nil`: the initial page).
    public static func persisted(
        in store: ElementStore<Element>, key: @escaping @Sendable (Input) -> String,
        revalidatingPagesOlderThan maxAge: Duration? = nil,
        pages: @escaping @Sendable (Input, Cursor?) async throws -> Page<Element, Cursor>
    ) -> PagingSource {
        persisted(in: store, key: key, revalidatingPagesOlderThan: maxAge) { input, cursor, _ in
            .modified(try await pages(input, cursor), .none)
        }
    }
}

extension PagingSource where Input == Void, Element: Codable, Element.ID: CacheKey, Cursor: Codable {
    /// Pages kept in `store` under `key`: a ``PagingListViewModel`` over them opens with the
    /// pages stored (offline too), in order, with their cursors, and pages on through the
    /// stored pages without a request, then from `pagesIfChanged`, storing each page it fetches
    /// (see the variant with an input for the details).
    ///
    /// ```swift
    /// let feed = PagingListViewModel(source: .persisted(in: contacts, key: "feed") { cursor, validators in
    ///     try await api.contacts(after: cursor, ifNoneMatch: validators.entityTag)
    /// })
    /// ```
    ///
    /// - Parameters:
    ///   - store: The store the pages' elements live in; its file keeps the pages.
    ///   - key: The list's name in the store.
    ///   - maxAge: How old a stored page beyond the initial page may be and still join the
    ///     list without a request: an older one is asked of the source again, with its
    ///     validators (see the variant with an input). Defaults to `nil`: any age.
    ///   - pagesIfChanged: Fetches the page at a cursor (`nil`: the initial page), or answers
    ///     "not modified" when the validators (of the stored page asked for again: the initial
    ///     page, or one older than `maxAge`; empty otherwise) are current.
    public static func persisted(
        in store: ElementStore<Element>, key: String, revalidatingPagesOlderThan maxAge: Duration? = nil,
        pagesIfChanged: @escaping @Sendable (Cursor?, Validators) async throws -> FetchResult<Page<Element, Cursor>>
    ) -> PagingSource {
        persisted(in: store, key: { _ in key }, revalidatingPagesOlderThan: maxAge) { _, cursor, validators in
            try await pagesIfChanged(cursor, validators)
        }
    }

    /// Pages kept in `store` under `key` (see the `pagesIfChanged` variant), for a source that
    /// always returns the whole page.
    ///
    /// ```swift
    /// let feed = PagingListViewModel(source: .persisted(in: contacts, key: "feed") { cursor in
    ///     try await api.contacts(after: cursor)
    /// })
    /// ```
    ///
    /// - Parameters:
    ///   - store: The store the pages' elements live in; its file keeps the pages.
    ///   - key: The list's name in the store.
    ///   - maxAge: How old a stored page beyond the initial page may be and still join the
    ///     list without a request: an older one is fetched again (see the variant with an
    ///     input). Defaults to `nil`: any age.
    ///   - pages: Fetches the page at a cursor (`nil`: the initial page).
    public static func persisted(
        in store: ElementStore<Element>, key: String, revalidatingPagesOlderThan maxAge: Duration? = nil,
        pages: @escaping @Sendable (Cursor?) async throws -> Page<Element, Cursor>
    ) -> PagingSource {
        persisted(in: store, key: key, revalidatingPagesOlderThan: maxAge) { cursor, _ in
            .modified(try await pages(cursor), .none)
        }
    }
}
