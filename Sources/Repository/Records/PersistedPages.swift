import ContentLoading
import Foundation

/// The pages of one paged list kept in an ``ElementStore``: each page a row (its cursor, its
/// neighbours' cursors, its ids, when it was fetched, its validators), written with its
/// elements in one transaction, next to the stored page that asked for it. A page that is
/// stored is read from the file; one that is not is fetched and stored. Every failure of the
/// file is a ``CacheError`` naming it and the list.
struct PersistedPages<Element: Identifiable & Codable & Sendable, Cursor: Codable & Sendable>: Sendable
where Element.ID: CacheKey {
    typealias Fetch = @Sendable (Cursor?, Validators) async throws -> FetchResult<Page<Element, Cursor>>

    let store: ElementStore<Element>
    /// The list's name in errors: the key the app gave.
    let key: String
    /// The key the list's pages are stored under: `pages:[Element type]|key`.
    let listKey: String
    let fetch: Fetch
    /// How old a stored page beyond the initial page may be and still join the list without a
    /// request; `nil`: any age.
    let maxAge: Duration?
    /// This list's identity, so it can tell its own writes among the store's changes.
    let origin = WriteOrigin()

    init(store: ElementStore<Element>, key: String, maxAge: Duration? = nil, fetch: @escaping Fetch) {
        self.store = store
        self.key = key
        listKey = store.pagesKey(key)
        self.maxAge = maxAge
        self.fetch = fetch
    }

    var disk: DiskCache { store.disk }

    /// The initial page from the source, asked with the stored page's validators, and stored,
    /// with what of it another stored page holds; `nil` when the source answered "not
    /// modified" (nothing is written).
    func refreshedInitialPage() async throws -> ServedPage<Element, Cursor>? {
        let validators = try? await disk.storedPageValidators(of: listKey, request: nil)
        let started = await disk.startVersion(since: disk.latestVersion)
        // NB: the store is told once what the fetch found is stored: a mutation an outbox
        // sends then is made over it.
        switch try await fetch(nil, validators ?? .none) {
        case .notModified where validators == nil: throw UnexpectedNotModified(key: key)
        case .notModified:
            store.requestSucceeded()
            return nil
        case .modified(let page, let fetched):
            let written = try await write(page, at: .initial, validators: fetched, keepingWritesAfter: started)
            store.requestSucceeded()
            return written
        }
    }

    /// The page at `cursor` joining the list at `direction`'s end: the stored one, or the
    /// source's, stored next to the page whose cursor asked for it; with what of it could not
    /// be served (see ``stored(_:)`` and ``write(_:at:validators:keepingWritesAfter:)``).
    ///
    /// A stored page that cannot be served whole (an element row that does not decode or is
    /// missing, now or when it was served before) is fetched again, with the error naming what
    /// was wrong beside: offline, the stored page is served as it is, and fetched at its next
    /// load. A stored page whose row does not read is fetched too; when that fails, the row's
    /// error is the one thrown (the next attempt tells the fetch's). A stored page beyond the
    /// initial page older than ``maxAge`` is asked for again (see
    /// ``revalidated(_:at:_:as:)``).
    func page(_ cursor: Cursor?, _ direction: PagingDirection) async throws -> ServedPage<Element, Cursor> {
        let read = try await read(cursor)
        if let stored = read.served, !read.isIncomplete {
            guard let cursor, isOld(read) else { return stored }
            return try await revalidated(stored, at: cursor, direction, as: read)
        }
        guard read.served != nil || read.unreadable != nil else { return try await fetched(cursor, direction) }
        do {
            let fetched = try await fetched(cursor, direction)
            return ServedPage(fetched.page, problem: fetched.problem ?? read.served?.problem ?? read.unreadable)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            if let stored = read.served { return stored }
            throw read.unreadable ?? error
        }
    }

    /// The page at `cursor` from the source, stored next to the page whose cursor asked for it.
    private func fetched(_ cursor: Cursor?, _ direction: PagingDirection) async throws -> ServedPage<Element, Cursor> {
        guard let cursor else {
            return try await refreshedInitialPage() ?? ServedPage(Page(items: [], nextCursor: nil))
        }
        // NB: asked without validators, "not modified" is an error (thrown), never `nil`.
        guard let fetched = try await fetched(cursor, direction, validators: .none) else {
            throw UnexpectedNotModified(key: key)
        }
        return fetched
    }

    /// The changes to `store`'s elements as a paging model over its lists hears them: every
    /// save and removal, the lists' own page writes too (a page's element can be held by
    /// another page the model shows, where de-duplication keeps the older item).
    ///
    /// A change is heard with what tells whether a newer change of one of its elements came
    /// first: the model, which applies it later, leaves out the saves those overtook. A removal
    /// took the element out of every stored page, and only a newer write of a page of the
    /// model's own list puts it back there (`listKey` names the stored list an input loads):
    /// the removal reaches the model unless one did.
    static func listen(
        to store: ElementStore<Element>, listKey: @escaping @Sendable (any Sendable) -> String?,
        _ listener: @escaping @MainActor @Sendable (PagingSourceChange<Element>) -> Bool
    ) {
        store.listenOnMainActor { change in
            // NB: taken when the model hears the change: the versions go once no write is shared.
            let placed = change.removed != nil || change.removesAll ? change.placedAfter() : [:]
            return listener(
                PagingSourceChange(
                    saved: change.saved, removed: change.removed, removesAll: change.removesAll,
                    isSuperseded: { change.isSuperseded($0) },
                    isPlacedAgain: { id, input in
                        listKey(input).flatMap { placed[$0]?.contains(id) } ?? false
                    }, version: change.version))
        }
    }

    // MARK: - Private

    /// Stores `page` where `placement` puts it, with its elements, and shares them with every
    /// other list holding them. Returns the page as stored: an element saved after `started`
    /// is kept in place of the fetched one. A page no stored page asks for any more is not
    /// stored, but its elements the file holds for other lists are written and shared all the
    /// same; one that `validators` say not to store is returned as fetched, not stored.
    ///
    /// An id of `page` that another stored page of the list holds too is stored on both (the
    /// list shows it once, where it is first) and named in the problem returned.
    ///
    /// - Throws: A ``CacheError`` naming the list and the id when `page` holds an id twice (the
    ///   kit's rule for duplicate ids): nothing is written.
    func write(
        _ page: Page<Element, Cursor>, at placement: DiskCache.PagePlacement, validators: Validators,
        keepingWritesAfter started: UInt64
    ) async throws -> ServedPage<Element, Cursor> {
        do {
            try DuplicateIDError.check(page.items)
        } catch {
            throw failure("store", error)
        }
        // NB: a page the server said not to store (`Cache-Control: no-store`) is shown and not
        // written; an initial one takes the list's stored pages with it, as a repository's older
        // copy of a `no-store` value goes.
        if validators.freshness?.isNoStore == true {
            if case .initial = placement { try await store.removePages(of: key) }
            return ServedPage(page)
        }
        return try await store.versions.sharing {
            let fetchedAt = store.now()
            let written: DiskCache.WrittenPage?
            do {
                let elements = try store.encoded(page.items)
                written = try await disk.writePage(
                    try JSONEncoder().encode(elements.map(\.id)),
                    previousCursor: try page.previousCursor.map(Self.encoded),
                    nextCursor: try page.nextCursor.map(Self.encoded), elements: elements, type: store.type,
                    of: listKey,
                    at: placement, fetchedAt: fetchedAt, validators: validators, keepingWritesAfter: started,
                    unlessCancelled: placement.isInitial)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw failure("write", error)
            }
            guard let written else { return ServedPage(page) }
            var stored = page
            stored.items = store.keeping(written.kept, removing: written.removed, in: page.items)
            stored.storedAt = written.version
            // NB: of a page with no place, only the elements the file held were written.
            let saved = written.elementsOnly.map { ids in stored.items.filter { ids.contains($0.id.persistentKey) } }
            await store.share(
                ElementChange(
                    saved: saved ?? stored.items, version: written.version, writtenAt: fetchedAt,
                    source: (ObjectIdentifier(origin), listKey), placedIn: saved == nil ? listKey : nil))
            guard !written.onOtherPages.isEmpty else { return ServedPage(stored) }
            var problem = ElementRowsProblem(type: Element.self)
            problem.onOtherPages = written.onOtherPages
            return ServedPage(stored, problem: failure("store", problem))
        }
    }

    /// A cursor's stored form: its JSON, keys sorted, so equal cursors compare equal in SQL.
    static func encoded(_ cursor: Cursor) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(cursor), as: UTF8.self)
    }

    /// A ``CacheError`` naming the file and this list.
    func failure(_ operation: String, _ error: any Error) -> CacheError {
        CacheError(operation: operation, path: disk.path, key: "pages \(key)", reason: CacheError.reason(error))
    }
}
