import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// A value read and saved back (a list saved as read, an `update` that leaves an element as it
/// was, an element saved as read) while an element has pending mutations: what its row shows
/// is no new server value, so the mutations are shown once, and a rollback finds the server's
/// value as it was.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct OutboxSavedBackTests {
    typealias Contact = ElementStoreTests.Contact
    typealias Contacts = KeyedRepository<String, [Contact]>

    let path: String
    let server = ContactServer([Contact(id: 1, phone: "one"), Contact(id: 2, phone: "two")])
    init() throws { path = try temporaryCachePath() }

    /// A launch: the store over the file, a repository of lists over it, a paused outbox with
    /// `suffix` appended to contact 1's phone, pending.
    func launch(appending suffix: String) async throws
        -> (ElementStore<Contact>, Contacts, Outbox<Contact, ContactServer>)
    {
        let store = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        let server = server
        let lists = Contacts(elements: store) { _ in try await server.all() }
        let outbox = Outbox(
            store: store, environment: server, mutations: [AppendToPhone.self], retryPolicy: RetryPolicy(attempts: 1),
            isPaused: true)
        try await lists.refresh("all")
        try await outbox.perform(AppendToPhone(id: 1, suffix: suffix))
        return (store, lists, outbox)
    }

    func phones(_ lists: Contacts) async throws -> [String]? {
        try await lists.value(for: "all", policy: .returnCacheDontLoad)?.value.map(\.phone)
    }

    /// The phones a new launch over the file shows (nothing pending is sent: no outbox).
    func phonesAfterARelaunch() async throws -> [String]? {
        let lists = Contacts(elements: ElementStore<Contact>(disk: try DiskCache(.file(path: path)))) { _ in [] }
        return try await phones(lists)
    }

    /// Sends what is pending; returns how it ended ("confirmed +a", "rejected +reject").
    func send(_ outbox: Outbox<Contact, ContactServer>) async -> String {
        var events = outbox.outcomes.makeAsyncIterator()
        await outbox.resume()
        switch await events.next() {
        case .confirmed(let pending)?: return "confirmed \((pending.mutation as? AppendToPhone)?.suffix ?? "")"
        case .rejected(let pending, _)?: return "rejected \((pending.mutation as? AppendToPhone)?.suffix ?? "")"
        default: return "other"
        }
    }

    @Test func anUpdateThatLeavesAnElementAsItWasShowsItsPendingMutationOnce() async throws {
        let (_, lists, outbox) = try await launch(appending: "+reject")
        try await lists.update("all") { $0.map { $0 + [Contact(id: 3, phone: "three")] } }
        #expect(try await phones(lists) == ["one+reject", "two", "three"])
        #expect(try await phonesAfterARelaunch() == ["one+reject", "two", "three"])
        #expect(await send(outbox) == "rejected +reject")
        #expect(try await phones(lists) == ["one", "two", "three"], "rolled back to the server's value")
    }

    @Test func aListSavedAsReadShowsThePendingMutationOnceAndItsConfirmationLands() async throws {
        let (_, lists, outbox) = try await launch(appending: "+a")
        let read = try #require(try await lists.value(for: "all", policy: .returnCacheDontLoad)?.value)
        try await lists.save(read, for: "all")
        #expect(try await phones(lists) == ["one+a", "two"])
        #expect(try await phonesAfterARelaunch() == ["one+a", "two"])
        #expect(await send(outbox) == "confirmed +a")
        #expect(await server.phone(of: 1) == "one+a", "sent over the server's value, once")
        #expect(try await phones(lists) == ["one+a", "two"])
    }

    @Test func anElementSavedAsReadShowsThePendingMutationOnceAndARollbackFindsTheServersValue() async throws {
        let (store, lists, outbox) = try await launch(appending: "+reject")
        try await store.save(try #require(try await store.element(id: 1)))
        #expect(try await store.element(id: 1)?.phone == "one+reject")
        #expect(try await phones(lists) == ["one+reject", "two"])
        #expect(await send(outbox) == "rejected +reject")
        #expect(try await store.element(id: 1)?.phone == "one")
        #expect(try await phones(lists) == ["one", "two"])
    }

    /// An element the save changes is a new server value, as before: its pending mutations are
    /// shown over it.
    @Test func anElementTheUpdateChangesIsItsNewServerValue() async throws {
        let (_, lists, _) = try await launch(appending: "+a")
        try await lists.update("all") { $0?.map { Contact(id: $0.id, phone: $0.id == 2 ? "deux" : $0.phone) } }
        #expect(try await phones(lists) == ["one+a", "deux"])
        try await lists.update("all") { $0?.map { Contact(id: $0.id, phone: $0.id == 1 ? "uno" : $0.phone) } }
        #expect(try await phones(lists) == ["uno+a", "deux"])
    }
}
