extension PagingListViewModel where Element: Identifiable, Element.ID: Sendable {
    /// Creates a paging model whose pages a store keeps: it opens with the pages stored (offline
    /// too), pages on through the stored ones without a request and then from the source, and
    /// shows the changes made to its elements elsewhere (a save through the store, a page
    /// another list stored), in place, with no request.
    ///
    /// ```swift
    /// let feed = PagingListViewModel(source: .persisted(in: contacts, key: "feed") { cursor in
    ///     try await api.contacts(after: cursor)
    /// })
    /// ```
    ///
    /// A refresh shows the stored initial page at once when the model shows nothing yet, then
    /// asks the source for the initial page: when it is unchanged (the source answered "not
    /// modified"), the list shown stays as it is and nothing is written. Items are told apart
    /// by their id: an item already in the list is skipped when pages overlap.
    ///
    /// A page the source serves without part of it (an element it could not read, an id
    /// another of its pages holds) joins the list with the source's error beside it: the state
    /// becomes ``ContentLoadingState/error(_:previous:)`` with the list.
    ///
    /// - Parameters:
    ///   - refreshPolicy: What a refresh does while the first page loads.
    ///   - lifetimeTrigger: When view lifetime events refresh; `nil` for never.
    ///   - initialInput: The input lifetime refreshes use before the first refresh.
    ///   - clock: The clock that measures the content's age.
    ///   - prefetchDistance: How close to the end the next page starts loading. Defaults to 5.
    ///   - pageWindow: Keep at most this many pages, dropping the oldest; a dropped page comes
    ///     back from the store. `nil` (the default), or a number below 1, keeps every page.
    ///   - source: Where the pages come from and are kept.
    public convenience init(
        refreshPolicy: RefreshPolicy = .latestWins,
        lifetimeTrigger: LifetimeTrigger? = nil,
        initialInput: Input? = nil,
        clock: any Clock<Duration> = ContinuousClock(),
        prefetchDistance: Int = 5,
        pageWindow: Int? = nil,
        source: PagingSource<Input, Element, Cursor>
    ) {
        self.init(
            refreshPolicy: refreshPolicy, lifetimeTrigger: lifetimeTrigger, initialInput: initialInput, clock: clock,
            prefetchDistance: prefetchDistance, pageWindow: pageWindow, deduplicatingBy: .id,
            source: PagingSourceOperations(
                storedInitialPage: source.storedInitialPage, refreshedInitialPage: source.refreshedInitialPage,
                page: source.page, isSameList: source.isSameList, isSameCursor: source.isSameCursor))
        // NB: the store keeps the listener, which holds the model weakly: it goes with the model.
        source.listen { [weak self] change in
            guard let self else { return false }
            self.apply(change)
            return true
        }
    }

    /// Shows `change` in the list: each saved element in place of the item with its id (unless
    /// equal), the removed one left out, order kept.
    ///
    /// While a load runs, the change is kept too, and applied again to what the load brings,
    /// which may have been read before it. A save that a newer change of its element overtook
    /// is left out; a removal is not, unless a page of the list stored after it holds the element.
    private func apply(_ change: PagingSourceChange<Element>) {
        let change = change.current()
        let isLoading = machine.activeLoad != nil || nextEnd.isLoading || previousEnd.isLoading
        heardChanges.hear(isLoading ? { list, key in change.apply(to: &list, key: key) } : nil)
        guard var list = content, change.apply(to: &list, key: deduplicationKey) else { return }
        showEdit(list)
    }
}

extension PagingListViewModel {
    /// Shows `list`, an edit of the list shown (a change heard from the source, an item the app
    /// removed): one it leaves with no item is not loaded on by itself.
    func showEdit(_ list: PagedList<Element, Cursor>) {
        isShowingEdit = true
        defer { isShowingEdit = false }
        replaceContent(with: list)
    }

    /// Notes that the refresh `token` ended (see `HeardChanges.openRefresh()`).
    func closeRefresh(_ token: Int) { heardChanges.closeRefresh(token) }

    /// Applies the changes heard since `mark` to the list shown (after a refresh delivered a
    /// list read before them).
    func applyHeardChanges(since mark: Int) {
        guard var list = content, heardChanges.apply(since: mark, to: &list, key: deduplicationKey) else { return }
        showEdit(list)
    }

    /// Whether the list shown holds `page` as its initial page (see
    /// `PagedList.holdsInitialPage(_:key:isSameCursor:)`); `false` when nothing is shown.
    func showsInitialPage(_ page: Page<Element, Cursor>, isSameCursor: (Cursor, Cursor) -> Bool) -> Bool {
        content?.holdsInitialPage(page, key: deduplicationKey, isSameCursor: isSameCursor) ?? false
    }

    /// `list` with the changes heard since `mark` applied.
    func withHeardChanges(since mark: Int, _ list: PagedList<Element, Cursor>) -> PagedList<Element, Cursor> {
        var list = list
        _ = heardChanges.apply(since: mark, to: &list, key: deduplicationKey)
        return list
    }

    /// The loads of a refresh with a source: the stored initial page, when the model shows
    /// nothing, then the source's initial page (extended by `keepPlace`, when given), or the
    /// list shown when the stored page is current.
    func sourceProducer(
        _ source: PagingSourceOperations<Input, Element, Cursor>, for input: Input,
        keepingPlace keepPlace: PlaceKeeper?
    ) -> ContentProducer<PagedList<Element, Cursor>> {
        // NB: a list shown for an input with another stored list is nothing shown for this one.
        let shownInput = content.flatMap { $0.origin.input as? Input }
        let showsNothing = shownInput.map { !source.isSameList($0, input) } ?? true
        let (key, heard, (token, since)) = (deduplicationKey, heardChanges.mark, heardChanges.openRefresh())
        return .deferringLoading { [weak self] send, showLoading in
            // NB: closed however the refresh ends (see `HeardChanges.openRefresh()`).
            let close = { [weak self] in await self?.closeRefresh(token) }
            do {
                try await Self.refresh(
                    input, from: source, showsNothing: showsNothing, keepingPlace: keepPlace, key: key,
                    applyingChangesSince: (heard, since), to: self, send: send, showLoading: showLoading)
            } catch {
                await close()
                throw error
            }
            await close()
        }
    }

    /// A refresh with a source (see ``sourceProducer(_:for:keepingPlace:)``): the stored initial
    /// page, when `showsNothing`, then the source's initial page, extended by `keepPlace` when
    /// given, with the changes heard since `heard.fetched` applied, or the list shown when the
    /// stored page is current, with those heard since `heard.shown` applied again after it (a
    /// refresh this one replaced may have shown a list read before some of them: see
    /// `HeardChanges.openRefresh()`).
    ///
    /// When the stored page is current but the list shown does not hold it, the stored page
    /// is shown as the source's would be: a refresh this one replaced stored it after the list
    /// shown was read, and did not deliver it (kept, the list shown would stay older than the
    /// file at every refresh after, each answered "not modified").
    private nonisolated static func refresh(
        _ input: Input, from source: PagingSourceOperations<Input, Element, Cursor>, showsNothing: Bool,
        keepingPlace keepPlace: PlaceKeeper?, key: DeduplicationKey<Element>?,
        applyingChangesSince heard: (fetched: Int, shown: Int),
        to model: PagingListViewModel?, send: @Sendable (ContentEvent<PagedList<Element, Cursor>>) async -> Void,
        showLoading: @Sendable () async -> Void
    ) async throws {
        weak let model = model
        if showsNothing {
            do {
                if let stored = try await source.storedInitialPage(input) {
                    await send(.value(try Self.firstList(stored.page, input: input, key: key, isChecked: true)))
                    if let problem = stored.problem { await send(.error(problem)) }
                } else {
                    await showLoading()
                }
            } catch {
                // NB: a stored page that does not read is an error event; the source still answers.
                await send(.error(error))
            }
        }
        var refreshed = try await source.refreshedInitialPage(input)
        if refreshed == nil, let stored = try? await source.storedInitialPage(input),
            await model?.showsInitialPage(stored.page, isSameCursor: source.isSameCursor) == false
        {
            refreshed = stored
        }
        if let served = refreshed {
            var (list, problem) = (
                try Self.firstList(served.page, input: input, key: key, isChecked: true), served.problem
            )
            if let keepPlace {
                let kept = try await keepPlace(list)
                (list, problem) = (kept.list, problem ?? kept.problem)
            }
            guard let merged = await model?.withHeardChanges(since: heard.fetched, list) else { return }
            await send(.value(merged))
            if let problem { await send(.error(problem)) }
            // NB: a change heard between the list's merge and its delivery was shown, then replaced.
            await model?.applyHeardChanges(since: heard.fetched)
        } else if let shown = await model?.content {
            await send(.value(shown))
            await model?.applyHeardChanges(since: heard.shown)
        }
    }
}

/// The functions of a ``PagingSource``, for a model of any element type.
struct PagingSourceOperations<Input: Sendable, Element: Sendable, Cursor: Sendable>: Sendable {
    let storedInitialPage: @Sendable (Input) async throws -> ServedPage<Element, Cursor>?
    let refreshedInitialPage: @Sendable (Input) async throws -> ServedPage<Element, Cursor>?
    let page: @Sendable (Input, Cursor?, PagingDirection) async throws -> ServedPage<Element, Cursor>
    let isSameList: @Sendable (Input, Input) -> Bool
    let isSameCursor: @Sendable (Cursor, Cursor) -> Bool
}

extension PagingSourceChange {
    /// Applies the change to `list`: each saved element in place of the item with its id
    /// (unless equal), the removed one left out (or every one), but for those a newer write of
    /// the list's pages placed there again, order kept. Items whose page holds the change
    /// already (the store served it after the change: see `PagedList+StoredAt`) are left as
    /// they are.
    ///
    /// - Returns: Whether `list` changed.
    func apply<Cursor>(to list: inout PagedList<Element, Cursor>, key: DeduplicationKey<Element>?) -> Bool {
        var changed = false
        let input = list.origin.input
        if removesAll,
            list.removeAll(
                where: { item, storedAt in
                    !isPlacedAgain(item.id, input)
                        && !PagedList<Element, Cursor>.page(storedAt: storedAt, holdsChangeAt: version)
                },
                key: key)
        {
            changed = true
        }
        if let removed, !isPlacedAgain(removed, input), let index = list.firstIndex(ofID: removed, key: key),
            !list.holdsChange(at: version, itemAt: index)
        {
            list.remove(at: index, key: key)
            changed = true
        }
        var saved = saved
        if list.mayHoldChange(at: version) {
            saved.removeAll { element in
                list.firstIndex(ofID: element.id, key: key).map { list.holdsChange(at: version, itemAt: $0) } ?? false
            }
        }
        if !saved.isEmpty, list.replace(saved, key: key) { changed = true }
        return changed
    }

}
