import ContentLoading
import ContentLoadingRepository
import Foundation
import KitTestSupport
import Testing

/// Conflicts are never silent: a mutation sent with `If-Match` and the entity tag the store
/// holds, refused with a `412` because the element changed, ends as its policy says (the
/// server's value, the mutation over it, or held for the app), with an event each time.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct OutboxConflictTests {
    typealias Contact = ElementStoreTests.Contact
    typealias Events = AsyncCompactMapSequence<
        AsyncStream<OutboxEvent<Contact, ContactServer>>, OutboxEvent<Contact, ContactServer>
    >.Iterator

    let server = ContactServer([Contact(id: 1, phone: "one")])
    let path: String
    let store: ElementStore<Contact>
    let details: KeyedRepository<Int, Contact>
    let outbox: Outbox<Contact, ContactServer>

    /// A store holding contact 1 as the server gave it (with its entity tag), after which the
    /// server's copy changed to "ONE".
    init() async throws {
        path = try temporaryCachePath()
        store = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        let server = server
        details = KeyedRepository<Int, Contact>(elements: store) { id, _ in
            let (contact, entityTag) = try await server.contact(id)
            return .modified(contact, Validators(entityTag: entityTag, lastModified: nil, freshness: nil))
        }
        outbox = Outbox(
            store: store, environment: server, mutations: [AppendToPhone.self], retryPolicy: RetryPolicy(attempts: 1))
        try await details.refresh(1)
        await server.setPhone(of: 1, to: "ONE")
    }

    func shown() async throws -> String? { try await store.element(id: 1)?.phone }

    func nextConflict(_ events: inout Events) async -> (
        PendingMutation<Contact, ContactServer>, MutationConflict<Contact>, ConflictResolution
    )? {
        guard case .conflict(let pending, let conflict, let resolution)? = await events.next() else { return nil }
        return (pending, conflict, resolution)
    }

    @Test func byDefaultTheServerWinsAndTheMutationIsRolledBack() async throws {
        var events = outbox.outcomes.makeAsyncIterator()
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a"))
        let (_, conflict, resolution) = try #require(await nextConflict(&events))
        #expect(resolution == .serverWins)
        #expect(conflict.local?.phone == "one+a", "what the user meant")
        #expect(conflict.server?.phone == "ONE", "what the server holds")
        #expect(conflict.entityTag == "v2")
        await outbox.send()
        #expect(try await shown() == "ONE", "the server's value, shown")
        #expect(try await details.value(for: 1, policy: .returnCacheDontLoad)?.value.phone == "ONE")
        #expect(try await outbox.pendingCount() == 0)
        #expect(await server.phone(of: 1) == "ONE")
    }

    @Test func theServersValueIsStoredInTheRowsEncodingAndKeepsItsEntityTag() async throws {
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a"))
        await outbox.send()
        // NB: the conflict's body came as {"phone": "ONE", "id": 1}: stored as it came, the same
        // value fetched again (in the rows' encoding) would not be the same bytes, and the file
        // would drop the entity tag the next mutation's `If-Match` needs.
        let row = "SELECT CAST(value AS TEXT) || ' ' || entity_tag FROM content_loading_elements WHERE id = '1'"
        #expect(try sqlRows(row, in: path) == [#"{"id":1,"phone":"ONE"} v2"#])
    }

    @Test func whenTheClientWinsTheMutationIsAppliedOverTheServersValueAndSentAgain() async throws {
        var events = outbox.outcomes.makeAsyncIterator()
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a", onConflict: "client"))
        #expect(try #require(await nextConflict(&events)).2 == .clientWins)
        guard case .confirmed? = await events.next() else {
            Issue.record("sent again with the current entity tag and confirmed")
            return
        }
        #expect(await server.phone(of: 1) == "ONE+a", "the edit over the server's change, not over the old copy")
        #expect(try await shown() == "ONE+a")
        #expect(try await outbox.pendingCount() == 0)
        let keys = await server.keys
        #expect(keys.count == 2 && Set(keys).count == 2, "sent again under a new key: the server keeps the refusal")
    }

    @Test func aMergeSendsWhatTheMutationMakesOfBothSides() async throws {
        var events = outbox.outcomes.makeAsyncIterator()
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a", onConflict: "merge"))
        let (_, conflict, resolution) = try #require(await nextConflict(&events))
        #expect(resolution == .merge)
        #expect(conflict.local?.phone == "one+a" && conflict.server?.phone == "ONE")
        guard case .confirmed? = await events.next() else {
            Issue.record("the merged value sent with the current entity tag and confirmed")
            return
        }
        #expect(await server.phone(of: 1) == "ONE & one+a")
        #expect(try await shown() == "ONE & one+a", "the server's answer to the merge, not the mutation over it")
        #expect(try await details.value(for: 1, policy: .returnCacheDontLoad)?.value.phone == "ONE & one+a")
        #expect(try await outbox.pendingCount() == 0)
        #expect(Set(await server.keys).count == 2)
    }

    @Test func anAskedConflictTheAppResolvesByMergeSendsTheMerge() async throws {
        var events = outbox.outcomes.makeAsyncIterator()
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a", onConflict: "ask"))
        let (held, _, _) = try #require(await nextConflict(&events))
        await outbox.resolve(held, with: .merge)
        #expect(await server.phone(of: 1) == "ONE & one+a")
        #expect(try await shown() == "ONE & one+a")
        #expect(try await outbox.pendingCount() == 0)
    }

    @Test func aMergeThatGivesNothingLetsTheServerWin() async throws {
        var events = outbox.outcomes.makeAsyncIterator()
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a", onConflict: "merge-none"))
        #expect(try #require(await nextConflict(&events)).2 == .merge)
        await outbox.send()
        #expect(try await shown() == "ONE")
        #expect(try await outbox.pendingCount() == 0)
        #expect(await server.keys.count == 1, "nothing sent again")
    }

    @Test func anAskedConflictIsHeldWithTheElementsLaterMutationsUntilTheAppDecides() async throws {
        var events = outbox.outcomes.makeAsyncIterator()
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a", onConflict: "ask"))
        let (held, _, resolution) = try #require(await nextConflict(&events))
        #expect(resolution == .ask)
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+b"))
        await outbox.send()
        #expect(try await outbox.pendingCount() == 2, "held, and the next one waits behind it")
        #expect(try await shown() == "one+a+b", "both still shown over the copy the store holds")
        #expect(await server.keys.count == 1, "the later mutation was not sent")

        await outbox.resolve(held, with: .clientWins)
        #expect(try await outbox.pendingCount() == 0)
        #expect(await server.phone(of: 1) == "ONE+a+b")
        #expect(try await shown() == "ONE+a+b")
    }

    @Test func aResolvedConflictIsSentOnceThoughTheQueueRunsWhileItIsSent() async throws {
        var events = outbox.outcomes.makeAsyncIterator()
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a", onConflict: "ask"))
        let (held, _, _) = try #require(await nextConflict(&events))
        let gate = server.holdNextRequest(of: 1)
        let resolving = Task { await outbox.resolve(held, with: .clientWins) }
        await gate.requested()

        // NB: a run of the queue while the resolved mutation is being sent (a perform, a fetch
        // that succeeded, a Retry button): it must not send it a second time.
        let run = Task { await outbox.send() }
        gate.release()
        await resolving.value
        await run.value
        let keys = await server.keys
        #expect(keys.count == 2, "the first attempt, then the resolved one once: \(keys)")
        #expect(await server.phone(of: 1) == "ONE+a")
        #expect(try await outbox.pendingCount() == 0)
    }

    @Test func aConflictResolvedWhileTheQueueIsPausedIsSentOnResume() async throws {
        var events = outbox.outcomes.makeAsyncIterator()
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a", onConflict: "ask"))
        let (held, _, _) = try #require(await nextConflict(&events))
        outbox.pause()

        await outbox.resolve(held, with: .clientWins)
        #expect(await server.keys.count == 1, "nothing sent while paused")
        #expect(try await outbox.pendingCount() == 1)
        #expect(try await shown() == "one+a", "still shown as performed, until it is sent")

        await outbox.resume()
        #expect(await server.keys.count == 2)
        #expect(await server.phone(of: 1) == "ONE+a")
        #expect(try await outbox.pendingCount() == 0)
    }

    @Test func aConflictTheAppLetsTheServerWinIsRolledBackAtOnceThoughTheQueueIsPaused() async throws {
        var events = outbox.outcomes.makeAsyncIterator()
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a", onConflict: "ask"))
        let (held, _, _) = try #require(await nextConflict(&events))
        outbox.pause()

        await outbox.resolve(held, with: .serverWins)
        #expect(try await shown() == "ONE", "the server's value")
        #expect(try await outbox.pendingCount() == 0)
        #expect(await server.keys.count == 1, "nothing sent")
    }

    /// Cancelled as soon as it is told, even before the run that told it lets go of it.
    @Test func aConflictTheAppCancelsAtOnceIsRolledBack() async throws {
        var events = outbox.outcomes.makeAsyncIterator()
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a", onConflict: "ask"))
        let (held, _, _) = try #require(await nextConflict(&events))
        #expect(try await outbox.cancel(held), "a held conflict is not being sent")
        #expect(try await shown() == "one", "the value held before the edit")
        #expect(try await outbox.pendingCount() == 0)
        #expect(await server.keys.count == 1, "nothing sent again")
    }

    /// Also when the value fetched since is the one the mutation was sent over ("one": the
    /// server's copy changed and changed back), with a newer entity tag.
    @Test(arguments: ["NEWER", "one"])
    func aConflictTheAppLetsTheServerWinKeepsAServerValueFetchedSince(fetched: String) async throws {
        var events = outbox.outcomes.makeAsyncIterator()
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a", onConflict: "ask"))
        let (held, conflict, _) = try #require(await nextConflict(&events))
        #expect(conflict.server?.phone == "ONE")
        await server.setPhone(of: 1, to: fetched)
        try await details.refresh(1)
        #expect(try await shown() == fetched + "+a", "fetched while the conflict is held")

        await outbox.resolve(held, with: .serverWins)
        #expect(try await shown() == fetched, "the value fetched since, not the older one the conflict came with")
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+b"))
        guard case .confirmed? = await events.next() else {
            Issue.record("sent with the newer value's entity tag, and confirmed")
            return
        }
        #expect(await server.phone(of: 1) == fetched + "+b")
    }
}
