import ContentLoading
import ContentLoadingSupport
import ContentLoadingTesting
import KitTestSupport
import Testing

/// A refresh keeps the item the reader is looking at (the model's `anchor`) at its place.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct ReadersPlaceTests {
    /// Items 0, 10, 20, …: room to insert between them.
    static func feed(count: Int, pageSize: Int = 10) -> KeysetFeed {
        KeysetFeed(ids: (0..<count).map { $0 * 10 }, pageSize: pageSize)
    }

    /// A model over 100 items (0, 10, …, 990) that loaded its first four pages, 0…390.
    static func fourPagesLoaded() async -> (KeysetFeed, PagingListViewModel<Void, Item, Int>) {
        let feed = feed(count: 100)
        let model = feed.model()
        _ = await model.refresh().settled()
        for _ in 0..<3 { await model.loadNextPage().settled() }
        return (feed, model)
    }

    func place(of id: Int, in list: PagedList<Item, Int>) -> (index: Int, place: Int)? {
        list.firstIndex { $0.id == id }.map { ($0, list.itemsBefore + $0) }
    }

    @Test func withoutAnAnchorARefreshShowsTheInitialPage() async throws {
        let (_, model) = await Self.fourPagesLoaded()
        #expect(model.items.count == 40)
        _ = await model.refresh().settled()
        #expect(model.items.map(\.id) == Array(0..<10).map { $0 * 10 })
    }

    @Test func itemsInsertedBeforeTheAnchorAreHeldBeforeTheListAndComeBack() async throws {
        let (feed, model) = await Self.fourPagesLoaded()
        model.anchor = 250
        let before = try #require(place(of: 250, in: model.items))
        #expect(before.index == 25)
        for id in [1, 2, 3, 105, 241] { feed.insert(id) }
        feed.requests.withLock { $0 = [] }

        _ = await model.refresh().settled()
        let after = try #require(place(of: 250, in: model.items))
        #expect(after.index == 25, "the anchor keeps its index")
        #expect(model.items.itemsBefore == 0, "and its place")
        #expect(model.items.first?.id == 20, "0, 1, 2, 3 and 10 are held before the list: five more came before 250")
        #expect(model.items.hasPrevious)
        #expect(feed.requests.withLock { $0 } == [nil, 60, 150, 241], "pages until the anchor's")

        while model.items.hasPrevious { #expect(await model.loadPreviousPage().settled() != .loading) }
        #expect(model.items.map(\.id) == Array(feed.all.prefix(model.items.count)), "contiguous, no duplicates")
        #expect(model.items.firstIndex { $0.id == 250 } == 30)
    }

    @Test func itemsRemovedBeforeTheAnchorMoveItUpAndItsPlaceStays() async throws {
        let (feed, model) = await Self.fourPagesLoaded()
        model.anchor = 250
        for id in [0, 50, 110, 240] { feed.remove(id) }

        _ = await model.refresh().settled()
        let after = try #require(place(of: 250, in: model.items))
        #expect(after.index == 21)
        #expect(after.place == 25, "itemsBefore makes up the four removed")
        #expect(!model.items.hasPrevious, "no item is before the list: the places are empty")
        #expect(model.items.map(\.id) == Array(feed.all.prefix(model.items.count)))
    }

    @Test func anAnchorNoLongerThereLeavesTheRefreshedPagesAsLoaded() async throws {
        let (feed, model) = await Self.fourPagesLoaded()
        model.anchor = 250
        feed.remove(250)
        _ = await model.refresh().settled()
        #expect(model.items.first?.id == 0)
        #expect(model.items.itemsBefore == 0)
        #expect(model.items.count == 90, "it looked for the anchor through 2 × 4 + 1 pages")
    }

    @Test func aPageThatFailsOnTheWayToTheAnchorFailsTheRefreshAndTheListShownStays() async throws {
        let (feed, model) = await Self.fourPagesLoaded()
        model.anchor = 250
        let shown = model.items
        feed.insert(5)
        feed.failing.withLock { $0 = [180] }
        let state = await model.refresh().settled()
        #expect(state.error is PageFailure)
        #expect(model.items == shown)
    }
}

/// The reader's place over randomized refreshes: 1,000 runs, each a feed paged forward (some
/// through a page window), an anchor picked among the items shown, then up to three refreshes
/// with items inserted and removed before and after it.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct ReadersPlaceRandomTests {
    @Test func aThousandRandomRefreshesMakeNoJump() async throws {
        var random = SeededGenerator(seed: 27_05)
        var jumps: [String] = []
        for run in 0..<RandomizedRuns.count(full: 1_000, usual: 1_000) {
            let pageSize = Int.random(in: 5...12, using: &random)
            let feed = KeysetFeed(
                ids: (0..<Int.random(in: 20...120, using: &random)).map { $0 * 1_000 }, pageSize: pageSize)
            let window = [nil, nil, 2, 3].randomElement(using: &random)!
            let model = feed.model(pageWindow: window)
            _ = await model.refresh().settled()
            for _ in 0..<Int.random(in: 0...5, using: &random) { await model.loadNextPage().settled() }
            let anchor = model.items.randomElement(using: &random)!.id
            model.anchor = anchor
            for refresh in 0..<Int.random(in: 1...3, using: &random) {
                let shown = model.items
                let index = try #require(shown.firstIndex { $0.id == anchor })
                for _ in 0..<Int.random(in: 0...10, using: &random) {
                    let id = Int.random(in: 0..<(feed.all.last! + 2_000), using: &random)
                    if id % 1_000 != 0, !feed.all.contains(id) { feed.insert(id) }
                }
                for _ in 0..<Int.random(in: 0...10, using: &random) {
                    if let id = feed.all.randomElement(using: &random), id != anchor { feed.remove(id) }
                }
                _ = await model.refresh().settled()
                let list = model.items
                let step =
                    "run \(run) refresh \(refresh), page size \(pageSize), window \(window.map(String.init) ?? "none")"
                let ids = list.map(\.id)
                let start = try #require(feed.all.firstIndex(of: ids[0]), "\(step)")
                #expect(list.itemsBefore >= 0, "\(step)")
                #expect(ids == Array(feed.all[start..<start + ids.count]), "\(step): a contiguous run of the feed")
                guard let newIndex = list.firstIndex(where: { $0.id == anchor }) else {
                    jumps.append("\(step): the anchor is gone")
                    continue
                }
                if list.itemsBefore + newIndex != shown.itemsBefore + index {
                    jumps.append("\(step): place \(shown.itemsBefore + index) → \(list.itemsBefore + newIndex)")
                }
                // NB: a window shifts indices as it drops pages, a refresh's too: there the place counts.
                let itemsBefore = feed.all.firstIndex(of: anchor)!
                if window == nil, itemsBefore >= index, newIndex != index {
                    jumps.append("\(step): index \(index) → \(newIndex) with \(itemsBefore) items before it")
                }
            }
            if window == nil {
                while model.items.hasPrevious { _ = await model.loadPreviousPage().settled() }
                let ids = model.items.map(\.id)
                #expect(ids == Array(feed.all.prefix(ids.count)), "run \(run): the held items came back in order")
            }
        }
        #expect(jumps.count == 0, "the first: \(jumps.prefix(5))")
    }
}
