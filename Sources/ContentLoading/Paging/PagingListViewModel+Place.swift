extension PagingListViewModel where Element: Identifiable, Element.ID: Sendable {
    /// The id of the item the reader is looking at, whose place a refresh keeps; `nil` (the
    /// default) for none.
    ///
    /// A refresh replaces the list with the initial page, which throws a reader far down the
    /// list back to the top. With an anchor in the list shown, the refresh loads the pages
    /// after the initial one until the anchor's (and a few items past it), then keeps the
    /// anchor at its place, `itemsBefore + index`:
    ///
    /// - Items the refresh added before the anchor are held before the list: the anchor keeps
    ///   its index, ``PagedList/itemsBefore`` its value, and ``loadPreviousPage()`` brings the
    ///   held items back.
    /// - Items the refresh removed before the anchor move it up the list; ``PagedList/itemsBefore``
    ///   grows by as much, so its place stays (a UI that lays out `itemsBefore` places first
    ///   keeps it on screen).
    ///
    /// With a ``pageWindow`` the refresh keeps the window too, so the anchor's index can change
    /// (as it does whenever the window drops pages); its place does not.
    ///
    /// When the anchor is no longer in the refreshed pages the refresh shows them as loaded. A
    /// page that fails to load fails the refresh, and the list shown stays.
    ///
    /// ```swift
    /// ForEach(model.items) { contact in
    ///     ContactRow(contact).onAppear { model.anchor = contact.id }
    /// }
    /// ```
    public var anchor: Element.ID? {
        get { placeAnchor?.id as? Element.ID }
        set { placeAnchor = newValue.map { id in PlaceAnchor(id: id) { $0.id == id } } }
    }
}

/// The item whose place a refresh keeps: its id and a test for it.
struct PlaceAnchor<Element>: Sendable {
    let id: any Hashable & Sendable
    let matches: @Sendable (Element) -> Bool
}

extension PagingListViewModel {
    /// Extends a refreshed list with next pages until it holds the anchor, then keeps the
    /// anchor's place; with the first problem a page it loaded came with.
    typealias PlaceKeeper =
        @Sendable (PagedList<Element, Cursor>) async throws -> (list: PagedList<Element, Cursor>, problem: (any Error)?)

    /// What keeps the anchor's place in the list a refresh for `input` loads, or `nil` when the
    /// list shown does not hold the anchor.
    func placeKeeper(for input: Input) -> PlaceKeeper? {
        guard let anchor = placeAnchor, let shown = content, shown.contains(where: anchor.matches) else { return nil }
        let (loadPage, key, window) = (pageFunction(.next), deduplicationKey, pageWindow)
        let (pageLimit, itemsPast) = (2 * shown.pagesLoaded + 1, max(prefetchDistance, 1))
        // NB: past the anchor's page, one page at most, and only when the window keeps both.
        let pagesPast = window.map { $0 >= 2 ? 1 : 0 } ?? 1
        return { [weak self] list in
            var (list, problem) = (list, (any Error)?.none)
            var (pages, past) = (1, 0)
            while pages < pageLimit, let request = list.nextRequest {
                if let index = list.firstIndex(where: anchor.matches) {
                    guard list.count - index <= itemsPast, past < pagesPast else { break }
                    past += 1
                }
                try Task.checkCancellation()
                let served = try await loadPage(input, request.cursor)
                problem = problem ?? served.problem
                list.append(served.page, requested: request, window: window, key: key)
                pages += 1
            }
            return (await self?.placed(list) ?? list, problem)
        }
    }

    /// `list` with the anchor at the place it has in the list shown, when both hold it.
    private func placed(_ list: PagedList<Element, Cursor>) -> PagedList<Element, Cursor> {
        guard let anchor = placeAnchor, let shown = content, let index = shown.firstIndex(where: anchor.matches),
            let newIndex = list.firstIndex(where: anchor.matches)
        else { return list }
        var list = list
        let kept = min(index, newIndex)
        list.holdFirst(newIndex - kept, placesBefore: shown.itemsBefore + index - kept, key: deduplicationKey)
        return list
    }
}
