import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// Records under interleaved work: element saves and removals, server changes, fetches of two
/// overlapping lists and of details (answered 304 when nothing changed), list removals, and
/// three persisted paging lists over the store (keyset cursors; offsets; and one with an input,
/// opened in the middle of the contacts for one input and at the start for the other; and a
/// second model over the first one's stored pages, as another screen showing it, through a
/// second store of the type over the connection, as the details are) loading
/// pages at both ends through windows, refreshing (the first keeping the reader's place), and
/// having their stored pages removed (they page on with nowhere to store their pages), contacts
/// the server adds, the server going off line, and an outbox's mutations (kept pending until a
/// step sends what is pending), run a few at a time at random, with a
/// relaunch now and then (everything made again over the file, the lists opened from their
/// stored pages, and at some launches asking for every stored page again as it joins). After
/// every step each reader (the paging models, a list, a detail) shows, for every id it holds,
/// the element row the file holds (the latest write), an element with pending mutations shows
/// the last one's, each list's stored pages are contiguous, and a list refreshed (in full, or
/// answered 304) in a step that removed nothing and added no contact holds the server's
/// contacts.
///
/// 4 seeds × 250 steps; 4 × 2,500 (10,000 steps) in the full fault corpus
/// (`CLK_FULL_FAULT_CORPUS=1`, as `.ci/run` sets it), 4 × 10,000 with `CLK_SLOW_TESTS=1`.
/// It found two writers of one element sharing their changes out of version order (a list
/// fetch that started after a save shared before it), a list dropping a change of one
/// element because a newer change of another had reached it first, (once list and detail
/// fetches could be answered 304) a 304 writing the list it compared over an element saved
/// meanwhile, a page fetched again at the other end from the one it was stored from left
/// unstored, a page with no place to be stored leaving another list's copy of its elements
/// older than the page, a page written again taking the initial page with it, and (about one
/// full-count run in eight) a detail's 304 confirming the element as it read it while an outbox
/// mutation of it was stored, the detail then showing the server's value and the file the
/// mutation (`DetailConfirmationTests`); and, once it checked the lists refreshed, a list
/// fetch dropped because an element of the list changed while it was on its way; and, once it
/// checked the lists answered 304 too, a 304 confirming a list without an element removed
/// since it was fetched, which a full answer of the same list brought back.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct RecordsInterleavingTests {
    typealias Contact = ElementStoreTests.Contact

    static var steps: Int {
        if ProcessInfo.processInfo.environment["CLK_SLOW_TESTS"] == "1" { return 10_000 }
        return RandomizedRuns.count(full: 2_500, usual: 250)
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func interleavedWritesLeaveEveryReaderShowingTheLatestWrite(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let path = try temporaryCachePath()
        let catalog = PagedCatalog(count: 24, pageSize: 3)
        var world = try World(launchingOver: path, catalog: catalog)
        await world.feed.refresh().completed()

        for step in 0..<Self.steps {
            // NB: now and then a relaunch: everything made again over the file, the feed opened
            // from its stored pages.
            if Int.random(in: 0..<50, using: &random) == 0 {
                world = try World(
                    launchingOver: path, catalog: catalog, revalidatingPages: Bool.random(using: &random))
                await world.feed.refresh().completed()
            }
            let (store, lists, details, feed) = (world.store, world.lists, world.details, world.feed)
            let launched = world
            // NB: a server that went off line (operation 12) is back at the next step.
            catalog.isOnline = true
            let operations = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                (Int.random(in: 0..<25, using: &random), Int.random(in: 0..<24, using: &random))
            }
            await withTaskGroup(of: Void.self) { group in
                for (operation, id) in operations {
                    group.addTask { await launched.perform(operation, on: id, at: step) }
                }
            }
            let context = "seed \(seed) step \(step) after \(operations)"
            let feeds = [
                ("feed", Array(feed.items)), ("twin", Array(world.twin.items)),
                ("offset feed", Array(world.offsetFeed.items)),
                ("middle feed", Array(world.middleFeed.items)),
            ]
            for (name, items) in feeds {
                for item in items {
                    let row = try await store.element(id: item.id)
                    #expect(
                        row == nil || row == item,
                        "\(context): the \(name) shows \(item), the file \(String(describing: row))")
                }
            }
            for key in ["first", "all"] {
                for item in try await lists.value(for: key, policy: .returnCacheDontLoad)?.value ?? [] {
                    let row = try await store.element(id: item.id)
                    #expect(
                        row == nil || row == item,
                        "\(context): the list \(key) shows \(item), the file \(String(describing: row))")
                }
            }
            // NB: a list refreshed in a step that removed nothing and added no contact holds the
            // server's contacts, in its order, whatever element changes its fetch met on its way:
            // also when it was answered 304 (a list that lost an element to a removal is asked for
            // in full; a 304 confirmed it without the element).
            let refreshed = Set(operations.filter { $0.0 == 7 }.map { World.listKey(for: $0.1) })
            let inFull = !operations.contains { [2, 9, 13].contains($0.0) }
            for key in refreshed where inFull {
                let ids = try await lists.value(for: key, policy: .returnCacheDontLoad)?.value.map(\.id)
                let served = Array(catalog.contacts.prefix(World.count(of: key)).map(\.id))
                #expect(
                    ids == served, "\(context): the list \(key), refreshed, holds \(ids ?? []), the server \(served)")
            }
            for id in operations.map(\.1) {
                guard let detail = try await details.value(for: id, policy: .returnCacheDontLoad)?.value else {
                    continue
                }
                // NB: a detail read from a list's row, and not written by id, goes from the file
                // with the lists that held it (a list removal); what the file holds, it shows.
                let row = try await store.element(id: id)
                #expect(
                    row == nil || row == detail,
                    "\(context): the detail shows \(detail), the file \(String(describing: row))")
            }
            // NB: an element with pending mutations shows the last one's phone, whatever was
            // fetched or saved since.
            var pending: [Int: String] = [:]
            for mutation in try await world.outbox.pendingMutations() {
                if let phone = mutation.mutation as? CatalogPhone { pending[phone.id] = phone.phone }
            }
            for (id, phone) in pending {
                guard let row = try await store.element(id: id) else { continue }
                #expect(row.phone == phone, "\(context): \(id) shows \(row.phone), pending \(phone)")
            }
            try expectContiguousPages(in: path, context)
        }
        #expect(RandomizedRuns.areFew || catalog.notModified > 0, "some fetches were answered 304")
    }

    /// What the steps work on: one launch of the app over the file.
    struct World: Sendable {
        let store: ElementStore<Contact>
        let lists: KeyedRepository<String, [Contact]>
        let details: KeyedRepository<Int, Contact>
        let feed: PagingListViewModel<Void, Contact, String>
        /// A second model over the feed's stored pages (another screen showing the same list),
        /// with no window.
        let twin: PagingListViewModel<Void, Contact, String>
        /// A second paged list over the store whose cursors are offsets ("from 6"), window 2.
        let offsetFeed: PagingListViewModel<Void, Contact, Int>
        /// A third, with an input: "a" opens in the middle of the contacts (its earlier pages
        /// stored before its initial page), "b" at the start; each input's pages stored under a
        /// key of their own. Window 3.
        let middleFeed: PagingListViewModel<String, Contact, String>
        /// Mutations of the contacts, kept pending until a step sends them.
        let outbox: Outbox<Contact, PagedCatalog>
        let catalog: PagedCatalog

        /// A launch over the file at `path`: the store, its lists and details (fetched
        /// conditionally: what the server has not changed since is a 304), and the feed (which,
        /// `revalidatingPages`, asks for every stored page again as it joins the list).
        @MainActor init(launchingOver path: String, catalog: PagedCatalog, revalidatingPages: Bool = false) throws {
            self.catalog = catalog
            let disk = try DiskCache(.file(path: path))
            store = ElementStore<Contact>(disk: disk)
            // NB: the details and the second model over the feed go through a second store of
            // the type over the connection (another feature that makes its own): one store to
            // every reader.
            let other = ElementStore<Contact>(disk: disk)
            outbox = Outbox(store: store, environment: catalog, mutations: [CatalogPhone.self], isPaused: true)
            // NB: two lists: "first" holds the first 6 contacts, "all" every one (each id in two).
            lists = KeyedRepository(elements: store) { key, validators in
                catalog.first(World.count(of: key), validators: validators)
            }
            details = KeyedRepository(elements: other) { id, validators in
                try catalog.contact(id, validators: validators)
            }
            feed = PagingListViewModel(
                pageWindow: 3,
                source: .persisted(
                    in: store, key: "feed", revalidatingPagesOlderThan: revalidatingPages ? .zero : nil
                ) { cursor, validators in
                    try await catalog.page(cursor, validators: validators)
                })
            twin = PagingListViewModel(
                source: .persisted(in: other, key: "feed") { cursor, validators in
                    try await catalog.page(cursor, validators: validators)
                })
            offsetFeed = PagingListViewModel(
                pageWindow: 2,
                source: .persisted(
                    in: store, key: "byOffset", revalidatingPagesOlderThan: revalidatingPages ? .zero : nil
                ) { offset in try catalog.page(offset: offset) })
            middleFeed = PagingListViewModel(
                pageWindow: 3,
                source: .persisted(
                    in: store, key: { "middle/\($0)" }, revalidatingPagesOlderThan: revalidatingPages ? .zero : nil
                ) { input, cursor, validators in
                    try await catalog.page(cursor, validators: validators, openingInTheMiddle: input == "a")
                })
        }

        /// The list an operation on contact `id` works on: "first" for an even id, "all" for an odd one.
        static func listKey(for id: Int) -> String { id.isMultiple(of: 2) ? "first" : "all" }

        /// How many of the server's contacts list `key` holds: the first 6, or all 24.
        static func count(of key: String) -> Int { key == "first" ? 6 : 24 }

        /// Runs operation `operation` (0…24) on contact `id`, at `step`; failures (a fetch of a
        /// page whose cursor went, a server off line) are part of the game.
        @MainActor func perform(_ operation: Int, on id: Int, at step: Int) async {
            switch operation {
            case 0, 1: _ = try? await store.save(Contact(id: id, phone: "saved \(step)"))
            // NB: a details repository's removal is the store's.
            case 2: _ = try? await (id.isMultiple(of: 2) ? store.remove(id: id) : details.remove(id))
            case 3: catalog.update(id, phone: "server \(step)")
            case 4: await feed.loadNextPage().settled()
            case 5: await feed.loadPreviousPage().settled()
            case 6: await feed.refresh().completed()
            case 7: _ = try? await lists.refresh(Self.listKey(for: id))
            case 8: _ = try? await details.refresh(id)
            case 9: try? await lists.remove(Self.listKey(for: id))
            case 10:
                _ = try? await details.value(for: id, policy: .returnCacheElseLoad)
                // NB: the read has its value once the fetch stored it; the paging model and the
                // lists get it as the fetch ends (a hop later).
                await details.fetchSettled(id)
            case 11:
                // NB: now and then every paged list's pages, as at a sign-out.
                try? await
                    (id.isMultiple(of: 3) ? store.removePages(ofKeysWithPrefix: "") : store.removePages(of: "feed"))
            case 12: catalog.isOnline = false
            // NB: a contact the server adds (every page after it moves), and the reader's place
            // (a refresh keeps that item where it is).
            case 13: catalog.insertNew(at: id, phone: "new \(step)")
            case 14: feed.anchor = feed.items.isEmpty ? nil : feed.items[id % feed.items.count].id
            case 15: await offsetFeed.loadNextPage().settled()
            case 16: await offsetFeed.loadPreviousPage().settled()
            case 17: await offsetFeed.refresh().completed()
            case 18: await middleFeed.loadNextPage().settled()
            case 19: await middleFeed.loadPreviousPage().settled()
            case 20: await middleFeed.refresh(id.isMultiple(of: 2) ? "a" : "b").completed()
            case 21: await twin.loadNextPage().settled()
            case 22: await twin.refresh().completed()
            case 23: try? await outbox.perform(CatalogPhone(id: id, phone: "pending \(step)"))
            default:
                // NB: what is pending goes to the server; the queue then holds what comes after.
                await outbox.resume()
                outbox.pause()
            }
        }
    }

    /// Each list's pages at consecutive positions, the initial page (0) among them, each page
    /// asked for by its neighbour's cursor towards it (its next cursor after the initial page,
    /// its previous cursor before it).
    func expectContiguousPages(in path: String, _ context: String) throws {
        // NB: fields apart by U+001E, which no key or cursor here holds (a list's key holds "|").
        let rows = try sqlRows(
            "SELECT list_key || char(30) || position || char(30) || ifnull(request, '') || char(30) "
                + "|| ifnull(previous_cursor, '') || char(30) || ifnull(next_cursor, '') "
                + "FROM content_loading_list_pages ORDER BY list_key, position", in: path
        ).map { $0.split(separator: "\u{1E}", omittingEmptySubsequences: false).map(String.init) }
        for list in Set(rows.map { $0[0] }) {
            let pages = rows.filter { $0[0] == list }.map { Array($0.dropFirst()) }
            let positions = pages.compactMap { Int($0[0]) }
            let first = positions.first ?? 0
            #expect(
                positions == Array(first..<first + positions.count) && positions.contains(0),
                "\(context): \(list): positions \(positions)")
            for (before, after) in zip(pages, pages.dropFirst()) {
                if (Int(after[0]) ?? 0) > 0 {
                    #expect(
                        after[1] == before[3],
                        "\(context): \(list): page \(after[0]) follows \(before[3]), asked for \(after[1])")
                } else {
                    #expect(
                        before[1] == after[2],
                        "\(context): \(list): page \(before[0]) precedes \(after[2]), asked for \(before[1])")
                }
            }
        }
    }
}
