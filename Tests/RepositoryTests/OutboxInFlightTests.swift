import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// A fetch that lands after the server stored a mutation's edit, while its answer is on the way
/// (or after the answer was lost), bringing the server's value of the element: that value is
/// the one the request sent, so the mutation is in it already and is not shown over it a second
/// time (an append twice), a "done" leaves it as the server value, and a lost answer's mutation
/// is sent again as the same request. A value that is another gets the mutation shown over it,
/// as any fetched value does. (A fetch that brings the list as it is shown writes nothing.)
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct OutboxInFlightTests {
    typealias Contact = ElementStoreTests.Contact
    typealias Contacts = KeyedRepository<String, [Contact]>

    let server = ContactServer([Contact(id: 1, phone: "one"), Contact(id: 2, phone: "two")])
    let path: String
    let store: ElementStore<Contact>
    let lists: Contacts
    let details: KeyedRepository<Int, Contact>
    let outbox: Outbox<Contact, ContactServer>

    init() throws {
        path = try temporaryCachePath()
        store = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        let server = server
        lists = Contacts(elements: store) { _ in try await server.all() }
        details = server.conditionalDetails(over: store)
        outbox = Outbox(
            store: store, environment: server, mutations: [AppendToPhone.self, AppendToPhoneAnsweringDone.self],
            retryPolicy: RetryPolicy(attempts: 1),
            isPaused: true)
    }

    /// What the list, contact 1's detail, its row and a relaunch's list show of contact 1.
    func shown() async throws -> [String?] {
        let relaunched = Contacts(elements: ElementStore<Contact>(disk: try DiskCache(.file(path: path)))) { _ in [] }
        return [
            try await lists.value(for: "all", policy: .returnCacheDontLoad)?.value.first?.phone,
            try await details.value(for: 1, policy: .returnCacheDontLoad)?.value.phone,
            try await store.element(id: 1)?.phone,
            try await relaunched.value(for: "all", policy: .returnCacheDontLoad)?.value.first?.phone,
        ]
    }

    func expectShown(
        _ phone: String, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let shown = try await shown()
        #expect(shown == Array(repeating: phone, count: shown.count), comment, sourceLocation: sourceLocation)
    }

    /// Performs `+a` on contact 1 and sends it, its answer held at the server once the server
    /// stored the edit (`losingIt`: then lost); returns the gate, the send and the outcomes.
    func performWithTheAnswerHeld(
        _ mutation: any Mutation<Contact, ContactServer> = AppendToPhone(id: 1, suffix: "+a"), losingIt: Bool = false
    ) async throws
        -> (PagedCatalog.Gate, Task<Void, Never>, AsyncStream<OutboxEvent<Contact, ContactServer>>.Iterator)
    {
        try await lists.refresh("all")
        try await details.refresh(1)
        try await outbox.perform(mutation)
        let events = outbox.events.makeAsyncIterator()
        let gate = server.holdNextAnswer(losingIt: losingIt)
        let resuming = Task { [outbox] in await outbox.resume() }
        await gate.requested()
        #expect(await server.phone(of: 1) == "one+a", "the server stored the edit")
        // NB: and another contact changed, so the list fetched is not the one shown (an equal
        // one writes nothing).
        await server.setPhone(of: 2, to: "deux")
        return (gate, resuming, events)
    }

    @Test func aFetchBringingTheValueTheRequestSentShowsTheMutationOnce() async throws {
        let (gate, resuming, _) = try await performWithTheAnswerHeld()
        try await lists.refresh("all")
        try await expectShown("one+a", "the list's fetch")
        try await details.refresh(1)
        try await expectShown("one+a", "the detail's fetch")

        gate.release()
        await resuming.value
        #expect(try await outbox.pendingCount() == 0, "confirmed")
        try await expectShown("one+a", "confirmed")
    }

    @MainActor @Test func aPageFetchedMeanwhileShowsTheMutationOnce() async throws {
        let server = server
        let feed = PagingListViewModel<Void, Contact, Int>(
            source: .persisted(in: store, key: "feed") { cursor in try await server.page(at: cursor).0 })
        await feed.refresh().completed()
        let (gate, resuming, _) = try await performWithTheAnswerHeld()
        #expect(feed.items.map(\.phone) == ["one+a", "two"])
        await feed.refresh().completed()
        #expect(feed.items.map(\.phone) == ["one+a", "deux"], "the page fetched while the request is in flight")
        try await expectShown("one+a")
        gate.release()
        await resuming.value
        #expect(feed.items.map(\.phone) == ["one+a", "deux"], "confirmed")
    }

    /// An answer without the value ("done") makes the server value the edit applied to the one
    /// kept: not to one fetched meanwhile that holds it already.
    @Test func aDoneAfterSuchAFetchLeavesTheFetchedValueAsTheServers() async throws {
        let (gate, resuming, _) = try await performWithTheAnswerHeld(AppendToPhoneAnsweringDone(id: 1, suffix: "+a"))
        try await lists.refresh("all")
        try await expectShown("one+a")
        gate.release()
        await resuming.value
        #expect(try await outbox.pendingCount() == 0, "confirmed")
        try await expectShown("one+a")
    }

    @Test func aMutationPerformedMeanwhileIsShownOverTheFetchedValueOnce() async throws {
        let (gate, resuming, _) = try await performWithTheAnswerHeld()
        try await lists.refresh("all")
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+b"))
        try await expectShown("one+a+b")

        gate.release()
        await resuming.value
        await outbox.send()
        #expect(try await outbox.pendingCount() == 0)
        #expect(await server.phone(of: 1) == "one+a+b")
        try await expectShown("one+a+b")
    }

    /// The server's value changed by someone else before the request: the mutation is not in
    /// the value fetched, and is shown over it.
    @Test func aFetchBringingAnotherValueShowsTheMutationOverIt() async throws {
        try await lists.refresh("all")
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a"))
        let (gate, resuming) = await server.resumeWithFirstRequestHeld(outbox)
        await server.setPhone(of: 1, to: "uno")
        try await lists.refresh("all")
        #expect(try await lists.value(for: "all", policy: .returnCacheDontLoad)?.value.first?.phone == "uno+a")
        gate.release()
        await resuming.value
    }

    /// An answer lost after such a fetch leaves the mutation pending, still shown once, under
    /// the mutations performed after it too; it is sent again as the same request (the same
    /// value, with the same idempotency key), which a server that checks a key's payload
    /// answers with what it stored, once.
    @Test func anAnswerLostAfterSuchAFetchIsSentAgainAsTheSameRequest() async throws {
        await server.setChecksPayloads(true)
        var (gate, resuming, events) = try await performWithTheAnswerHeld(losingIt: true)
        try await lists.refresh("all")
        gate.release()
        while let event = await events.next() {
            if case .willRetry = event { break }
        }
        await resuming.value
        #expect(try await outbox.pendingCount() == 1)
        try await expectShown("one+a")
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+b"))
        try await expectShown("one+a+b")

        await outbox.send()
        var outcomes: [String] = []
        while outcomes.count < 2, let event = await events.next() {
            switch event {
            case .confirmed(let pending):
                outcomes.append("confirmed \((pending.mutation as? AppendToPhone)?.suffix ?? "?")")
            case .rejected(let pending, _):
                outcomes.append("rejected \((pending.mutation as? AppendToPhone)?.suffix ?? "?")")
            default: continue
            }
        }
        #expect(outcomes == ["confirmed +a", "confirmed +b"])
        #expect(try await outbox.pendingCount() == 0)
        let keys = await server.keys
        #expect(keys.count == 3 && keys[0] == keys[1], "+a sent twice with one key, then +b")
        #expect(await server.phone(of: 1) == "one+a+b")
        try await expectShown("one+a+b")
    }
}

/// Sent again after a conflict the client won, over the server's value with its entity tag
/// and a new key, an answer lost and nothing learned of the element since: the mutation is sent
/// again as that request, not made again over the copy it was first made on (another body
/// under the same key, which a server that checks a key's payload refuses: a rollback to a
/// value the server no longer holds, and an edit that took effect reported rejected).
extension OutboxInFlightTests {
    /// Performs `mutation` (+a on contact 1, winning its conflicts) and sends it after the
    /// server's copy changed, to a server that checks a key's payload: a 412, then the resend
    /// over the server's value, stored and its answer lost; the outbox paused after.
    func sendAConflictTheClientWinsLosingTheResendsAnswer(_ mutation: any Mutation<Contact, ContactServer>)
        async throws
    {
        await server.setChecksPayloads(true)
        try await lists.refresh("all")
        try await details.refresh(1)
        try await outbox.perform(mutation)
        await server.setPhone(of: 1, to: "uno")
        let gate = server.holdNextAnswer(losingIt: true)
        let resuming = Task { [outbox] in await outbox.resume() }
        await gate.requested()
        outbox.pause()
        gate.release()
        await resuming.value
    }

    @Test func aResendAfterAConflictWhoseAnswerIsLostIsSentAgainAsTheSameRequest() async throws {
        var events = outbox.events.makeAsyncIterator()
        try await sendAConflictTheClientWinsLosingTheResendsAnswer(
            AppendToPhone(id: 1, suffix: "+a", onConflict: "client"))
        #expect(await server.phone(of: 1) == "uno+a", "sent again over the server's value, and stored")
        #expect(try await outbox.pendingCount() == 1, "the answer was lost")
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+b"))

        // NB: the answer to +b's request held: what the rows show once +a is confirmed.
        let second = server.holdNextAnswer()
        let sending = Task { [outbox] in await outbox.resume() }
        await second.requested()
        try await expectShown("uno+a+b", "+a confirmed with the server's value, +b over it")
        second.release()
        await sending.value
        var outcomes: [String] = []
        while outcomes.count < 2, let event = await events.next() {
            switch event {
            case .confirmed: outcomes.append("confirmed")
            case .rejected(_, let error): outcomes.append("rejected: \(error)")
            default: continue
            }
        }
        #expect(outcomes == ["confirmed", "confirmed"])
        let keys = await server.keys
        #expect(keys.count == 4 && keys[0] != keys[1] && keys[1] == keys[2], "a new key after the conflict, sent twice")
        #expect(await server.phone(of: 1) == "uno+a+b")
        try await expectShown("uno+a+b")
    }
}

/// The same, answered "done" (no value): the server value is what that request sent (made over
/// the server's value the conflict came with), not the mutation applied to the copy kept.
extension OutboxInFlightTests {
    @Test func aResendAfterAConflictAnsweredDoneLeavesWhatItSentAsTheServersValue() async throws {
        try await sendAConflictTheClientWinsLosingTheResendsAnswer(
            AppendToPhoneAnsweringDone(id: 1, suffix: "+a", clientWins: true))
        #expect(try await outbox.pendingCount() == 1, "the answer was lost")

        await outbox.resume()
        #expect(try await outbox.pendingCount() == 0, "done")
        #expect(await server.phone(of: 1) == "uno+a")
        try await expectShown("uno+a")
    }
}

/// Appends to a contact's phone, with `If-Match`; the answer says "done" without the contact.
/// `clientWins`: a conflict is sent again over the server's value.
struct AppendToPhoneAnsweringDone: Mutation {
    let id: Int
    let suffix: String
    var clientWins = false
    var elementID: Int { id }
    func apply(to contact: inout ElementStoreTests.Contact) { contact.phone += suffix }
    func send(using server: ContactServer, context: MutationContext<ElementStoreTests.Contact>) async throws
        -> MutationResult<ElementStoreTests.Contact>
    {
        let answer = try await server.put(
            context.edited, key: context.idempotencyKey, ifMatch: context.entityTag, rejecting: false)
        return MutationResult(value: nil, entityTag: answer.entityTag)
    }
    func resolve(_ conflict: MutationConflict<ElementStoreTests.Contact>) -> ConflictResolution {
        clientWins ? .clientWins : .serverWins
    }
}
