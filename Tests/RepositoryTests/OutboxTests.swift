import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// The outbox: a mutation is shown by every reader at once and stored in the same file; it is
/// sent in order, once, confirmed with the server's answer, or rolled back alone.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct OutboxTests {
    typealias Contact = ElementStoreTests.Contact
    typealias Contacts = KeyedRepository<String, [Contact]>

    let path: String
    let server = ContactServer([Contact(id: 1, phone: "one"), Contact(id: 2, phone: "two")])
    init() throws { path = try temporaryCachePath() }

    /// A launch of the app: the store over the file, a repository of lists over it, an outbox.
    /// `isPaused`: made paused, so a test can subscribe to its events before the launch's sends.
    func launch(mutations: [any Mutation<Contact, ContactServer>.Type] = [AppendToPhone.self], isPaused: Bool = false)
        throws -> (ElementStore<Contact>, Contacts, Outbox<Contact, ContactServer>)
    {
        let store = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        let server = server
        let lists = Contacts(elements: store) { _ in try await server.all() }
        let outbox = Outbox(
            store: store, environment: server, mutations: mutations, retryPolicy: RetryPolicy(attempts: 1),
            isPaused: isPaused)
        return (store, lists, outbox)
    }

    func phones(_ lists: Contacts) async throws -> [String]? {
        try await lists.value(for: "all", policy: .returnCacheDontLoad)?.value.map(\.phone)
    }

    @Test func aMutationIsShownEverywhereBeforeItsRequestThenConfirmedWithTheServersAnswer() async throws {
        let (store, lists, outbox) = try launch()
        let server = server
        let details = KeyedRepository<Int, Contact>(elements: store) { id in
            try await server.all().first { $0.id == id }!
        }
        try await lists.refresh("all")
        try await details.refresh(1)
        await outbox.send()
        let gate = server.holdNextRequest()
        var events = outbox.outcomes.makeAsyncIterator()

        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a"))
        #expect(try await phones(lists) == ["one+a", "two"], "the list shows it before any request")
        #expect(try await store.element(id: 1)?.phone == "one+a", "the element row too")
        #expect(try await details.value(for: 1, policy: .returnCacheDontLoad)?.value.phone == "one+a", "the detail")
        #expect(try await outbox.pendingCount() == 1)
        #expect(try await outbox.pendingCount(for: 1) == 1)
        await gate.requested()
        #expect(await server.phone(of: 1) == "one", "the request has not landed")

        gate.release()
        guard case .confirmed(let confirmed)? = await events.next() else {
            Issue.record("the mutation is confirmed")
            return
        }
        #expect(confirmed.mutation is AppendToPhone)
        #expect(await server.phone(of: 1) == "one+a")
        #expect(try await outbox.pendingCount() == 0)
        #expect(try await phones(lists) == ["one+a", "two"])
        #expect(try sqlRows("SELECT count(*) FROM content_loading_element_bases", in: path) == ["0"])
    }

    @Test func aPerformThatIsRolledBackLeavesNoElementPending() async throws {
        // NB: the element's row does not decode, so the mutation cannot be shown over it: the
        // perform fails, and its transaction, which had kept the row apart, is rolled back.
        let (store, lists, outbox) = try launch(isPaused: true)
        try await lists.refresh("all")
        _ = try sqlRows("UPDATE content_loading_elements SET value = X'7B' WHERE id = '2'", in: path)
        // NB: a write through the store after that edit of the file, so the store knows of it.
        try await store.save(Contact(id: 1, phone: "one"))
        await #expect(throws: (any Error).self) { try await outbox.perform(AppendToPhone(id: 2, suffix: "+b")) }
        #expect(try await outbox.pendingCount() == 0)

        await server.setPhone(of: 2, to: "TWO")
        try await lists.refresh("all")
        #expect(try await store.element(id: 2)?.phone == "TWO")
        #expect(
            try sqlRows("SELECT count(*) FROM content_loading_element_bases", in: path) == ["0"],
            "no server value is kept apart: nothing is pending")
    }

    @Test func aMutationSurvivesARelaunchAndIsSentOnceWithItsKey() async throws {
        var (_, lists, outbox) = try launch()
        try await lists.refresh("all")
        await server.setOnline(false)
        try await outbox.perform(AppendToPhone(id: 2, suffix: "+b"))
        await outbox.send()
        #expect(try await outbox.pendingCount() == 1, "kept while the server is down")
        #expect(try await phones(lists) == ["one", "two+b"])
        // NB: one attempt or two while offline: the perform's own send may end before send()
        // starts another (it did under ThreadSanitizer), or send() may join it.
        let offlineAttempts = await server.keys.count
        #expect(offlineAttempts >= 1)

        await server.setOnline(true)
        (_, lists, outbox) = try launch()
        #expect(try await phones(lists) == ["one", "two+b"], "shown after the relaunch, from the file")
        await outbox.send()
        #expect(try await outbox.pendingCount() == 0, "sent with no user action")
        #expect(await server.phone(of: 2) == "two+b", "applied once")
        let keys = await server.keys
        #expect(keys.count > offlineAttempts, "sent again after the relaunch: \(keys)")
        #expect(Set(keys).count == 1, "the same key on every attempt, before and after the relaunch: \(keys)")
    }

    @Test func aMutationKeptAfterAFailureIsSentWhenTheNextRequestSucceeds() async throws {
        let (_, lists, outbox) = try launch()
        try await lists.refresh("all")
        await server.setOnline(false)
        var events = outbox.outcomes.makeAsyncIterator()
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a"))
        guard case .willRetry? = await events.next() else {
            Issue.record("the server is down: the mutation waits")
            return
        }

        await server.setOnline(true)
        await server.setPhone(of: 1, to: "ONE")
        try await lists.refresh("all")
        // NB: the launch's run may come after the perform's and try again while the server is
        // down (under ThreadSanitizer, about one run in 300): a second `willRetry`.
        guard case .confirmed? = await events.nextAfterRetries() else {
            Issue.record("the fetch that succeeded sends the mutation, with no other call")
            return
        }
        // NB: sent once the fetched value is stored, so made over it (the list carries no entity
        // tag: sent before, it would overwrite "ONE" with "one+a").
        #expect(await server.phone(of: 1) == "ONE+a")
        #expect(try await phones(lists) == ["ONE+a", "two"])
    }

    @Test func aFetchWhileAMutationIsPendingShowsTheMutationOverTheServersValue() async throws {
        let (_, lists, outbox) = try launch()
        try await lists.refresh("all")
        await server.setOnline(false)
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a"))
        await outbox.send()

        await server.setOnline(true)
        await server.setPhone(of: 1, to: "ONE")
        try await lists.refresh("all")
        #expect(try await phones(lists) == ["ONE+a", "two"], "the server's new value with the edit over it")

        await outbox.send()
        #expect(await server.phone(of: 1) == "ONE+a")
        #expect(try await phones(lists) == ["ONE+a", "two"])
        #expect(try await outbox.pendingCount() == 0)
    }

    @Test func aRejectedMutationIsRolledBackAloneAndTheOthersStay() async throws {
        let (_, lists, outbox) = try launch()
        try await lists.refresh("all")
        await server.setOnline(false)
        for suffix in ["+1", "+reject", "+3"] { try await outbox.perform(AppendToPhone(id: 1, suffix: suffix)) }
        await outbox.send()
        #expect(try await phones(lists) == ["one+1+reject+3", "two"])

        await server.setOnline(true)
        var events = outbox.outcomes.makeAsyncIterator()
        await outbox.send()
        var seen: [String] = []
        for _ in 0..<3 {
            switch await events.next() {
            case .confirmed(let pending)?:
                seen.append("confirmed \((pending.mutation as? AppendToPhone)?.suffix ?? "")")
            case .rejected(let pending, _)?:
                seen.append("rejected \((pending.mutation as? AppendToPhone)?.suffix ?? "")")
            default: seen.append("other")
            }
        }
        #expect(seen == ["confirmed +1", "rejected +reject", "confirmed +3"], "in order, one at a time")
        #expect(try await phones(lists) == ["one+1+3", "two"], "the second rolled back, the first and third kept")
        #expect(await server.phone(of: 1) == "one+1+3")
    }

    @Test func aMutationThatNoLongerDecodesIsSetAsideAndTheQueueGoesOn() async throws {
        var (_, lists, outbox) = try launch(mutations: [AppendToPhone.self, SetPhone.self])
        try await lists.refresh("all")
        await server.setOnline(false)
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+old"))
        try await outbox.perform(SetPhone(id: 1, phone: "uno"))
        await outbox.send()
        // NB: the first launch's outbox lives on while a run its performs started goes on, and
        // it reads `AppendToPhone`: once the server was back, it sent the mutation before the
        // second launch's outbox could set it aside (under ThreadSanitizer, about one run in
        // 150: that one then waited for ever for an event, or found no row set aside). Paused,
        // and with its last run ended (`send()` waits for it), it sends nothing more.
        outbox.pause()
        await outbox.send()

        await server.setOnline(true)
        (_, lists, outbox) = try launch(mutations: [SetPhone.self], isPaused: true)
        var events = outbox.outcomes.makeAsyncIterator()
        await outbox.resume()
        guard case .setAside(let aside, let error)? = await events.next() else {
            Issue.record("the mutation that no type reads is set aside")
            return
        }
        #expect(aside.name.hasSuffix("AppendToPhone"))
        #expect("\(error)".contains("no mutation type given to the outbox is named"))
        guard case .confirmed? = await events.next() else {
            Issue.record("the next mutation of the element is sent")
            return
        }
        #expect(await server.phone(of: 1) == "uno")
        #expect(try await outbox.pendingCount() == 0)
        #expect(
            try sqlRows("SELECT count(*) FROM content_loading_outbox WHERE set_aside IS NOT NULL", in: path) == ["1"])
    }
}

/// Appends `suffix` to a contact's phone, sent with `If-Match`; the server rejects the suffix
/// "+reject". A conflict ends as `onConflict` says ("server", "client", "merge" or "ask").
struct AppendToPhone: Mutation {
    let id: Int
    let suffix: String
    var onConflict = "server"
    var scope: String? = nil
    var elementID: Int { id }
    func apply(to contact: inout ElementStoreTests.Contact) { contact.phone += suffix }
    func send(using server: ContactServer, context: MutationContext<ElementStoreTests.Contact>) async throws
        -> MutationResult<ElementStoreTests.Contact>
    {
        try await server.put(
            context.edited, key: context.idempotencyKey, ifMatch: context.entityTag, rejecting: suffix == "+reject")
    }
    func resolve(_ conflict: MutationConflict<ElementStoreTests.Contact>) -> ConflictResolution {
        switch onConflict {
        case "client": .clientWins
        case "ask": .ask
        case "merge", "merge-none": .merge
        default: .serverWins
        }
    }
    /// Both phones, the server's first; none for `merge-none`.
    func merge(_ conflict: MutationConflict<ElementStoreTests.Contact>) -> ElementStoreTests.Contact? {
        guard onConflict != "merge-none", var merged = conflict.server, let local = conflict.local else { return nil }
        merged.phone += " & " + local.phone
        return merged
    }
}

/// Sets a contact's phone.
struct SetPhone: Mutation {
    let id: Int
    let phone: String
    var elementID: Int { id }
    func apply(to contact: inout ElementStoreTests.Contact) { contact.phone = phone }
    func send(using server: ContactServer, context: MutationContext<ElementStoreTests.Contact>) async throws
        -> MutationResult<ElementStoreTests.Contact>
    {
        try await server.put(context.edited, key: context.idempotencyKey, rejecting: false)
    }
}
