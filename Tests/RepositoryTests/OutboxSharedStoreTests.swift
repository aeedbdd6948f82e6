import ContentLoading
import Foundation
import KitTestSupport
import Testing

@testable import ContentLoadingRepository

/// Two outboxes over one store (a screen that made its own, say): each mutation is still sent
/// once and in order, a conflict one holds for its app is not sent by the other, and none is
/// left waiting because the other outbox had it when its queue ran.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct OutboxSharedStoreTests {
    typealias Contact = ElementStoreTests.Contact

    let server = ContactServer([Contact(id: 1, phone: "one")])
    let store: ElementStore<Contact>
    let first: Outbox<Contact, ContactServer>
    let second: Outbox<Contact, ContactServer>

    /// A store holding contact 1 as the server gave it (with its entity tag), and two paused
    /// outboxes over it.
    init() async throws {
        store = ElementStore<Contact>(disk: try DiskCache(.file(path: try temporaryCachePath())))
        let server = server
        let details = KeyedRepository<Int, Contact>(elements: store) { id, _ in
            let (contact, entityTag) = try await server.contact(id)
            return .modified(contact, Validators(entityTag: entityTag, lastModified: nil, freshness: nil))
        }
        try await details.refresh(1)
        first = Outbox(
            store: store, environment: server, mutations: [AppendToPhone.self], retryPolicy: RetryPolicy(attempts: 1),
            isPaused: true)
        second = Outbox(
            store: store, environment: server, mutations: [AppendToPhone.self], retryPolicy: RetryPolicy(attempts: 1),
            isPaused: true)
    }

    @Test func aMutationBeingSentByOneOutboxIsNotSentByTheOther() async throws {
        try await first.perform(AppendToPhone(id: 1, suffix: "+a"))
        let (gate, sending) = await server.resumeWithFirstRequestHeld(first)

        await second.resume()
        #expect(await server.keys.isEmpty, "the second outbox's queue left it to the first")

        gate.release()
        await sending.value
        await second.send()
        #expect(await server.keys.count == 1, "sent once")
        #expect(await server.phone(of: 1) == "one+a")
        #expect(try await second.pendingCount() == 0)
    }

    @Test func aMutationTheOtherOutboxPerformedMeanwhileIsSentAfterTheOneBeforeIt() async throws {
        try await first.perform(AppendToPhone(id: 1, suffix: "+a"))
        let (gate, sending) = await server.resumeWithFirstRequestHeld(first)
        await second.resume()

        // NB: the second outbox's queue meets "+a" first, and stops there: it is the first's.
        try await second.perform(AppendToPhone(id: 1, suffix: "+b"))
        await second.send()
        #expect(await server.keys.isEmpty)

        // NB: made before "+a" is let go, so that neither misses the confirmation of "+b".
        let streams = [first.events, second.events]
        gate.release()
        await sending.value
        // NB: no call runs a queue again: letting go of "+a" wakes the second queue. The first
        // one's run may go on to "+b" too (under TSan, about one run in 20), and whichever
        // claims it sends it, once: the test waited for the second's event alone, for ever.
        guard let confirmed = await Self.confirmation(of: "+b", in: streams) else {
            Issue.record("neither outbox sent the mutation")
            return
        }
        #expect((confirmed.mutation as? AppendToPhone)?.suffix == "+b")
        #expect(await server.phone(of: 1) == "one+a+b", "in the order performed")
        #expect(await server.keys.count == 2)
        #expect(try await store.element(id: 1)?.phone == "one+a+b")
    }

    @Test func aConflictOneOutboxHoldsForItsAppIsNotSentByTheOther() async throws {
        await server.setPhone(of: 1, to: "ONE")
        var events = first.outcomes.makeAsyncIterator()
        try await first.perform(AppendToPhone(id: 1, suffix: "+a", onConflict: "ask"))
        await first.resume()
        guard case .conflict(let pending, _, .ask)? = await events.next() else {
            Issue.record("no conflict held for the app")
            return
        }

        await second.resume()
        #expect(await server.keys.count == 1, "not sent again by the second outbox")
        #expect(try await second.pendingCount() == 1)

        await first.resolve(pending, with: .clientWins)
        #expect(await server.phone(of: 1) == "ONE+a", "sent again once, over the server's value")
        await second.send()
        #expect(await server.keys.count == 2)
        #expect(try await second.pendingCount() == 0)
    }

    @Test func twoOutboxesSendingSideBySideSendEachMutationOnceAndInOrder() async throws {
        await first.resume()
        await second.resume()
        var suffixes: [String] = []
        for round in 0..<40 {
            // NB: performed in turn through either outbox, each perform starting its queue, while
            // the other's queue may be sending the mutations before it.
            for index in 0..<4 {
                let suffix = "+\(round).\(index)"
                try await (index.isMultiple(of: 2) ? first : second).perform(AppendToPhone(id: 1, suffix: suffix))
                suffixes.append(suffix)
            }
            await first.send()
            await second.send()
        }
        // NB: a queue woken by the other's let-go may still be sending when the other's run
        // ends; `send()` waits for a run under way.
        for _ in 0..<100 where try await first.pendingCount() > 0 {
            await first.send()
            await second.send()
        }
        #expect(try await first.pendingCount() == 0)
        #expect(await server.keys.count == suffixes.count, "each sent once")
        #expect(await server.phone(of: 1) == "one" + suffixes.joined(), "in the order performed")
    }

    @Test func aConflictAnOutboxHeldWhenItWentIsLeftToTheOther() async throws {
        await server.setPhone(of: 1, to: "ONE")
        weak var dropped: Outbox<Contact, ContactServer>?
        do {
            let held = Outbox(
                store: store, environment: server, mutations: [AppendToPhone.self],
                retryPolicy: RetryPolicy(attempts: 1))
            var events = held.outcomes.makeAsyncIterator()
            try await held.perform(AppendToPhone(id: 1, suffix: "+a", onConflict: "ask"))
            guard case .conflict(_, _, .ask)? = await events.next() else {
                Issue.record("no conflict held for the app")
                return
            }
            await held.send()
            dropped = held
        }
        // NB: a task whose work is done may still be letting go of the outbox.
        #expect(await yieldUntil { dropped == nil })

        var events = second.outcomes.makeAsyncIterator()
        await second.resume()
        guard case .conflict(let pending, _, .ask)? = await events.next() else {
            Issue.record("the other outbox did not send it")
            return
        }
        #expect((pending.mutation as? AppendToPhone)?.suffix == "+a")
        #expect(await server.keys.count == 2, "sent again, once")
    }

    @Test func aPurgeWaitsForTheOtherOutboxsSendAndNoneStartsMeanwhile() async throws {
        try await first.perform(AppendToPhone(id: 1, suffix: "+a"))
        try await first.perform(AppendToPhone(id: 1, suffix: "+b"))
        let (gate, sending) = await server.resumeWithFirstRequestHeld(first)

        let second = second
        let purging = Task { try await second.purge() }
        // NB: what the purge waits for sends no signal of its own until it is let go.
        try #require(await yieldUntil { second.claims.isPurging })
        gate.release()
        await sending.value
        try await purging.value

        #expect(await server.phone(of: 1) == "one+a", "the send under way answered, and \"+b\" never went")
        #expect(await server.keys.count == 1)
        #expect(try await store.element(id: 1)?.phone == "one+a", "what the server holds: the answer was kept")
        #expect(try await first.pendingCount() == 0)
        await first.send()
        #expect(await server.keys.count == 1)
    }

    /// The first confirmation of the mutation with `suffix` that any of `streams` gives.
    static func confirmation(
        of suffix: String, in streams: [AsyncStream<OutboxEvent<Contact, ContactServer>>]
    ) async -> PendingMutation<Contact, ContactServer>? {
        await withTaskGroup(of: PendingMutation<Contact, ContactServer>?.self) { group in
            for stream in streams {
                group.addTask {
                    for await event in stream {
                        if case .confirmed(let pending) = event, (pending.mutation as? AppendToPhone)?.suffix == suffix
                        {
                            return pending
                        }
                    }
                    return nil
                }
            }
            for await found in group {
                guard let found else { continue }
                group.cancelAll()
                return found
            }
            return nil
        }
    }
}
