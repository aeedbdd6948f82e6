import ContentLoading
import ContentLoadingRepository
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// What a screen is told while mutations are pending: every value they touch comes as
/// `pending` until the server confirms the last of them (then `remote`), and the count of
/// changes not sent yet per list and overall.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct OutboxPendingTests {
    typealias Contact = ElementStoreTests.Contact

    let server = ContactServer([Contact(id: 1, phone: "one"), Contact(id: 2, phone: "two"), Contact(id: 3, phone: "3")])
    let store: ElementStore<Contact>
    let lists: KeyedRepository<String, [Contact]>
    let details: KeyedRepository<Int, Contact>
    let outbox: Outbox<Contact, ContactServer>

    /// Two lists ("all", and "last" holding contact 3 only) and the details, over one store,
    /// with a paused outbox.
    init() async throws {
        store = ElementStore<Contact>(disk: try DiskCache(.file(path: try temporaryCachePath())))
        let server = server
        lists = KeyedRepository(elements: store) { key in
            let all = try await server.all()
            return key == "last" ? Array(all.suffix(1)) : all
        }
        details = KeyedRepository(elements: store) { id in try await server.contact(id).0 }
        outbox = Outbox(
            store: store, environment: server, mutations: [AppendToPhone.self], retryPolicy: RetryPolicy(attempts: 1),
            isPaused: true)
        for key in ["all", "last"] { try await lists.refresh(key) }
        try await details.refresh(1)
    }

    @Test func valuesAMutationTouchesArePendingUntilTheServerConfirmsTheLast() async throws {
        let all = record(lists.events(for: "all"))
        let detail = record(details.events(for: 1))
        _ = try await all.values(count: 1)
        _ = try await detail.values(count: 1)

        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a"))
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+b"))
        let shown = try #require(try await all.values(count: 3).last?.cachedValue)
        #expect(shown.value.map(\.phone) == ["one+a+b", "two", "3"])
        #expect(shown.origin == .pending)
        #expect(try await detail.values(count: 3).last?.cachedValue?.origin == .pending, "the detail too")

        await outbox.resume()
        // NB: the first answer is what the list shows already, under the second: not delivered.
        let confirmed = try #require(try await all.values(count: 4).last?.cachedValue)
        #expect(confirmed.origin == .remote, "delivered again once none is pending")
        #expect(confirmed.value.map(\.phone) == ["one+a+b", "two", "3"])
    }

    @Test func theCountNotSentYetIsPerListAndOverall() async throws {
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a"))
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+b"))
        try await outbox.perform(AppendToPhone(id: 3, suffix: "+c"))
        let all = try #require(try await lists.value(for: "all", policy: .returnCacheDontLoad)).value
        let last = try #require(try await lists.value(for: "last", policy: .returnCacheDontLoad)).value
        #expect(try await outbox.pendingCount(in: all) == 3)
        #expect(try await outbox.pendingCount(in: last) == 1)
        #expect(try await outbox.pendingCount(in: all + all) == 3, "an element held twice counts once")
        #expect(try await outbox.pendingCount() == 3)

        await outbox.resume()
        #expect(try await outbox.pendingCount(in: all) == 0)
    }
}
