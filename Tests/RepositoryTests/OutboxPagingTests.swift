import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// The outbox and a persisted paging list over the same store: a mutation is shown in the
/// pages at once, on disk too (so a relaunch opens the pages with it, offline); a page fetched
/// while it is pending shows it over the server's value; it is confirmed or rolled back alone
/// in the pages; and a page fetch that succeeds sends a mutation waiting after a failure.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct OutboxPagingTests {
    typealias Contact = ElementStoreTests.Contact
    typealias Feed = PagingListViewModel<Void, Contact, Int>

    let path: String
    let server = ContactServer((0..<6).map { Contact(id: $0, phone: "\($0)") })
    init() throws { path = try temporaryCachePath() }

    /// A launch of the app: the store over the file, a paging list of the server's contacts in
    /// pages of 2 (the cursor is the index of a page's first contact), an outbox.
    func launch(isPaused: Bool = false) throws -> (Feed, Outbox<Contact, ContactServer>) {
        let store = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        let server = server
        let feed = Feed(
            source: .persisted(in: store, key: "feed") { cursor in try await server.page(at: cursor).0 })
        let outbox = Outbox(
            store: store, environment: server, mutations: [AppendToPhone.self], retryPolicy: RetryPolicy(attempts: 1),
            isPaused: isPaused)
        return (feed, outbox)
    }

    func phones(_ feed: Feed) -> [String] { feed.items.map(\.phone) }

    @Test func aMutationIsShownInThePagesAtOnceAndAfterARelaunchOffline() async throws {
        var (feed, outbox) = try launch()
        await feed.refresh().completed()
        await feed.loadNextPage().settled()
        await server.setOnline(false)

        try await outbox.perform(AppendToPhone(id: 3, suffix: "+a"))
        #expect(phones(feed) == ["0", "1", "2", "3+a"], "the second page shows it when perform returns")
        #expect(try await outbox.pendingCount() == 1)

        (feed, outbox) = try launch(isPaused: true)
        let opened = await feed.refresh().completed()
        #expect(opened.error != nil, "offline: the request failed beside the stored pages")
        await feed.loadNextPage().settled()
        #expect(phones(feed) == ["0", "1", "2", "3+a"], "the stored pages, the pending edit on them")
        #expect(try await outbox.pendingCount(in: feed.items) == 1, "what the screen says is not sent yet")
    }

    @Test func aPageFetchedWhileAMutationIsPendingShowsItOverTheServersNewValueUntilConfirmed() async throws {
        let (feed, outbox) = try launch()
        await feed.refresh().completed()
        var outcomes = outbox.outcomes.makeAsyncIterator()
        let gate = server.holdNextRequest(of: 1)
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a"))
        await gate.requested()

        await server.setPhone(of: 1, to: "ONE")
        await feed.refresh().completed()
        #expect(phones(feed) == ["0", "ONE+a"], "the server's new value with the pending edit over it")

        gate.release()
        guard case .confirmed? = await outcomes.next() else {
            Issue.record("the mutation is confirmed")
            return
        }
        // NB: the request went before the server's change, with the value then shown and no
        // If-Match (the pages carry no entity tags): the server's answer is what it stored.
        #expect(await server.phone(of: 1) == "1+a")
        #expect(phones(feed) == ["0", "1+a"], "the server's answer, once confirmed")
        #expect(try await outbox.pendingCount() == 0)
    }

    @Test func aRejectedMutationIsRolledBackAloneInThePages() async throws {
        let (feed, outbox) = try launch()
        await feed.refresh().completed()
        var outcomes = outbox.outcomes.makeAsyncIterator()
        let gate = server.holdNextRequest(of: 0)
        try await outbox.perform(AppendToPhone(id: 0, suffix: "+a"))
        await gate.requested()
        try await outbox.perform(AppendToPhone(id: 0, suffix: "+reject"))
        try await outbox.perform(AppendToPhone(id: 0, suffix: "+c"))
        #expect(phones(feed) == ["0+a+reject+c", "1"])

        gate.release()
        var rejected = 0
        var confirmed = 0
        while rejected + confirmed < 3, let outcome = await outcomes.next() {
            switch outcome {
            case .confirmed: confirmed += 1
            case .rejected: rejected += 1
            default: break
            }
        }
        #expect((confirmed, rejected) == (2, 1))
        #expect(phones(feed) == ["0+a+c", "1"], "the first and third edits stay, the second goes")
        #expect(await server.phone(of: 0) == "0+a+c")
    }

    @Test func aPageFetchThatSucceedsSendsAMutationWaitingAfterAFailure() async throws {
        let (feed, outbox) = try launch()
        await feed.refresh().completed()
        await server.setOnline(false)
        var outcomes = outbox.outcomes.makeAsyncIterator()
        try await outbox.perform(AppendToPhone(id: 0, suffix: "+a"))
        guard case .willRetry? = await outcomes.next() else {
            Issue.record("the server is down: the mutation waits")
            return
        }

        await server.setOnline(true)
        await feed.loadNextPage().settled()
        #expect(phones(feed) == ["0+a", "1", "2", "3"])
        // NB: the launch's run may come after the perform's and try again while the server is
        // down: a second `willRetry` (as in `OutboxTests`).
        guard case .confirmed? = await outcomes.nextAfterRetries() else {
            Issue.record("the page fetch that succeeded sends the mutation, with no other call")
            return
        }
        #expect(await server.phone(of: 0) == "0+a")
        #expect(phones(feed) == ["0+a", "1", "2", "3"])
    }
}
