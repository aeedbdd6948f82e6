import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import Foundation
import KitTestSupport
import Testing

/// An outbox in one connection to the file (the app) and fetches in another (its extension, or
/// a second `DiskCache` in the same process), each opened before the other wrote: an edit
/// pending in one is never undone in the file by the other's fetch, and an element the outbox
/// has confirmed takes the other's fetched values again.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct OutboxAcrossConnectionsTests {
    typealias Contact = ElementStoreTests.Contact
    typealias Contacts = KeyedRepository<String, [Contact]>

    let path: String
    let server = ContactServer([Contact(id: 1, phone: "one"), Contact(id: 2, phone: "two")])
    /// The app's store, with its outbox (made paused), and the extension's store, over one file.
    let app: ElementStore<Contact>
    let outbox: Outbox<Contact, ContactServer>
    let other: ElementStore<Contact>

    init() throws {
        path = try temporaryCachePath()
        app = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        outbox = Outbox(
            store: app, environment: server, mutations: [AppendToPhone.self], retryPolicy: RetryPolicy(attempts: 1),
            isPaused: true)
        other = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
    }

    func lists(over store: ElementStore<Contact>) -> Contacts {
        let server = server
        return Contacts(elements: store) { _ in try await server.all() }
    }

    /// Details with each contact's entity tag, as an app's are.
    func details(over store: ElementStore<Contact>) -> KeyedRepository<Int, Contact> {
        let server = server
        return KeyedRepository(elements: store) { id, _ in
            let (contact, tag) = try await server.contact(id)
            return .modified(contact, Validators(entityTag: tag))
        }
    }

    /// The extension's own outbox over `other` (made paused).
    func otherOutbox() -> Outbox<Contact, ContactServer> {
        Outbox(
            store: other, environment: server, mutations: [AppendToPhone.self], retryPolicy: RetryPolicy(attempts: 1),
            isPaused: true)
    }

    /// Contact 1's phone as a launch over the file reads it.
    func phoneAfterRelaunch() async throws -> String? {
        try await ElementStore<Contact>(disk: try DiskCache(.file(path: path))).element(id: 1)?.phone
    }

    /// Confirms the pending mutations and waits until the outbox has.
    func drain() async throws {
        var events = outbox.outcomes.makeAsyncIterator()
        await outbox.resume()
        while try await outbox.pendingCount() > 0 {
            guard case .confirmed? = await events.next() else {
                Issue.record("the mutations are confirmed")
                return
            }
        }
    }

    @Test func aListFetchedInAnotherConnectionKeepsAnEditPendingHere() async throws {
        try await lists(over: app).refresh("all")
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a"))

        let others = lists(over: other)
        try await others.refresh("all")
        #expect(
            try await others.value(for: "all", policy: .returnCacheDontLoad)?.value.map(\.phone) == ["one+a", "two"])
        #expect(try await phoneAfterRelaunch() == "one+a", "the file still shows the edit")

        try await drain()
        #expect(await server.phone(of: 1) == "one+a")
        #expect(try await phoneAfterRelaunch() == "one+a")
        #expect(try sqlRows("SELECT count(*) FROM content_loading_element_bases", in: path) == ["0"])
    }

    @Test func anotherConnectionWithAnOutboxShowsTheEditOverWhatItFetched() async throws {
        try await lists(over: app).refresh("all")
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a"))
        await server.setPhone(of: 1, to: "ONE")

        let otherOutbox = otherOutbox()
        let others = lists(over: other)
        try await others.refresh("all")
        #expect(
            try await others.value(for: "all", policy: .returnCacheDontLoad)?.value.map(\.phone) == ["ONE+a", "two"])
        #expect(try await phoneAfterRelaunch() == "ONE+a")
        #expect(try await otherOutbox.pendingCount() == 1, "the mutation is the file's: the other outbox lists it too")

        try await drain()
        #expect(await server.phone(of: 1) == "ONE+a", "sent over the server value the other connection fetched")
    }

    @Test func anAnswerThatComesAfterAnotherConnectionSettledTheMutationChangesNothing() async throws {
        // NB: two outboxes on one file send the same mutation, with the same key; the server
        // applies it once and answers the second delivery as it did the first.
        try await lists(over: app).refresh("all")
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a"))
        let otherOutbox = otherOutbox()
        let (gate, held) = await server.resumeWithFirstRequestHeld(outbox)

        await otherOutbox.resume()
        try await otherOutbox.perform(AppendToPhone(id: 1, suffix: "+b"))
        await otherOutbox.send()
        #expect(await server.phone(of: 1) == "one+a+b")
        #expect(try await otherOutbox.pendingCount() == 0)

        gate.release()
        await held.value
        #expect(try await phoneAfterRelaunch() == "one+a+b", "the late answer to the first mutation is older")
        #expect(try sqlRows("SELECT count(*) FROM content_loading_element_bases", in: path) == ["0"])
    }

    @Test(arguments: [true, false])
    func aConflictBothOutboxesMeetIsSentAgainOnceAndAppliedOnce(serverRemembersRefusals: Bool) async throws {
        // NB: the element's entity tag is held, and stale: the first delivery is a 412. The
        // app's delivery comes after the extension resolved it (sent again, applied, settled):
        // a server that remembers the refusal answers it again; one that does not refuses it
        // with the contact as it is now, whose entity tag would let a resend through.
        await server.setRemembersRefusals(serverRemembersRefusals)
        try await details(over: app).refresh(1)
        await server.setPhone(of: 1, to: "ONE")
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a", onConflict: "client"))
        let otherOutbox = otherOutbox()
        let (gate, held) = await server.resumeWithFirstRequestHeld(outbox)

        await otherOutbox.resume()
        #expect(await server.phone(of: 1) == "ONE+a", "sent again under a new key, over the server's value")
        gate.release()
        await held.value
        #expect(await server.phone(of: 1) == "ONE+a", "not sent again by the outbox that met the conflict second")
        #expect(try await outbox.pendingCount() == 0)
        #expect(try await phoneAfterRelaunch() == "ONE+a")
    }

    @Test func aDetailFetchedInAnotherConnectionKeepsAnEditPendingHere() async throws {
        try await lists(over: app).refresh("all")
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a"))

        let others = details(over: other)
        try await others.refresh(1)
        #expect(try await others.value(for: 1, policy: .returnCacheDontLoad)?.value.phone == "one+a")
        #expect(try await phoneAfterRelaunch() == "one+a", "the file still shows the edit")
    }

    @Test func anElementConfirmedHereTakesWhatAnotherConnectionFetchesAfterwards() async throws {
        try await lists(over: app).refresh("all")
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a"))
        // NB: opened while the edit is pending, as an extension launched meanwhile is.
        let late = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        try await drain()
        await server.setPhone(of: 1, to: "ONE")

        let lates = lists(over: late)
        try await lates.refresh("all")
        #expect(try await lates.value(for: "all", policy: .returnCacheDontLoad)?.value.map(\.phone) == ["ONE", "two"])
        #expect(try await phoneAfterRelaunch() == "ONE", "the file holds what was fetched")
        #expect(
            try sqlRows("SELECT count(*) FROM content_loading_element_bases", in: path) == ["0"],
            "no server value is kept apart for an element with nothing pending")
    }
}
