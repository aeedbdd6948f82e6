import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import Foundation
import KitTestSupport
import Testing

/// The app's control of the outbox: the pending mutations listed, one cancelled, the queue
/// paused and resumed, and emptied at a sign-out.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct OutboxControlTests {
    typealias Contact = ElementStoreTests.Contact

    let server = ContactServer([Contact(id: 1, phone: "one"), Contact(id: 2, phone: "two")])
    let store: ElementStore<Contact>
    let outbox: Outbox<Contact, ContactServer>

    /// A store holding both contacts and a paused outbox over it.
    init() async throws {
        store = ElementStore<Contact>(disk: try DiskCache(.file(path: try temporaryCachePath())))
        for contact in try await server.all() { try await store.save(contact) }
        outbox = Outbox(store: store, environment: server, mutations: [AppendToPhone.self], isPaused: true)
    }

    func shown(_ id: Int) async throws -> String? { try await store.element(id: id)?.phone }

    @Test func aPausedQueueStoresAndShowsButSendsNothingUntilItResumes() async throws {
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a"))
        await outbox.send()
        #expect(outbox.isPaused)
        #expect(try await shown(1) == "one+a")
        #expect(await server.keys.isEmpty, "nothing sent while paused")

        await outbox.resume()
        #expect(!outbox.isPaused)
        #expect(try await outbox.pendingCount() == 0)
        #expect(await server.phone(of: 1) == "one+a")
    }

    @Test func aCancelledMutationIsRolledBackAloneAndNeverSent() async throws {
        for suffix in ["+1", "+2", "+3"] { try await outbox.perform(AppendToPhone(id: 1, suffix: suffix)) }
        let pending = try await outbox.pendingMutations()
        #expect(pending.compactMap { ($0.mutation as? AppendToPhone)?.suffix } == ["+1", "+2", "+3"], "in order")
        #expect(Set(pending.map(\.idempotencyKey)).count == 3)

        #expect(try await outbox.cancel(pending[1]))
        #expect(try await shown(1) == "one+1+3", "the first and third still shown")
        #expect(try await !outbox.cancel(pending[1]), "no longer pending")

        await outbox.resume()
        #expect(await server.phone(of: 1) == "one+1+3")
        #expect(await server.keys == [pending[0].idempotencyKey, pending[2].idempotencyKey])
    }

    @Test func aMutationCancelledWhileTheOneBeforeItIsSentIsSkippedAndTheOneAfterItSent() async throws {
        for suffix in ["+1", "+2", "+3"] { try await outbox.perform(AppendToPhone(id: 1, suffix: suffix)) }
        let pending = try await outbox.pendingMutations()
        let gate = server.holdNextRequest()
        let outbox = outbox
        let sending = Task { await outbox.resume() }
        await gate.requested()

        // NB: the run read all three before the cancel.
        #expect(try await outbox.cancel(pending[1]))
        gate.release()
        await sending.value
        #expect(try await outbox.pendingCount() == 0, "the third not left for a later run")
        #expect(await server.phone(of: 1) == "one+1+3")
        #expect(await server.keys == [pending[0].idempotencyKey, pending[2].idempotencyKey])
    }

    @Test func aSendWhoseTaskIsCancelledStopsWaitingAndTheQueueGoesOn() async throws {
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a"))
        let (gate, resuming) = await server.resumeWithFirstRequestHeld(outbox)
        let outbox = outbox
        let released = Locked(false)
        // NB: a fallback, so a wait that does not stop fails the test instead of hanging it.
        let fallback = Task {
            try await Task.sleep(for: .seconds(10))
            released.withLock { $0 = true }
            gate.release()
        }
        let sending = Task { await outbox.send() }
        sending.cancel()
        await sending.value
        #expect(!released.withLock { $0 }, "it returned while the request was held at the server")

        fallback.cancel()
        gate.release()
        await resuming.value
        #expect(try await outbox.pendingCount() == 0, "the queue went on")
        #expect(await server.phone(of: 1) == "one+a")
    }

    @Test func aMutationTheAppCancelsAsSoonAsItIsToldItWillBeRetriedIsRolledBack() async throws {
        await server.setOnline(false)
        let outbox = Outbox(
            store: store, environment: server, mutations: [AppendToPhone.self], retryPolicy: RetryPolicy(attempts: 1))
        var events = outbox.outcomes.makeAsyncIterator()
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a"))
        guard case .willRetry(let pending, _)? = await events.next() else {
            Issue.record("no willRetry event")
            return
        }
        #expect(try await outbox.cancel(pending), "not being sent: it waits for a retry")
        #expect(try await shown(1) == "one")
        #expect(try await outbox.pendingCount() == 0)
    }

    @Test func purgingAtASignOutRollsEveryMutationBackAndSendsNothing() async throws {
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a"))
        try await outbox.perform(AppendToPhone(id: 2, suffix: "+b"))
        #expect(try await outbox.pendingCount() == 2)

        try await outbox.purge()
        #expect(try await outbox.pendingCount() == 0)
        #expect(try await shown(1) == "one")
        #expect(try await shown(2) == "two")
        #expect(outbox.isPaused, "still paused, as it was")
        await outbox.resume()
        #expect(await server.keys.isEmpty)
    }

    @Test func anOutboxMadePausedSendsNothingAtLaunchAndReportsEachAttemptOnceResumed() async throws {
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a"))
        await server.setOnline(false)
        // NB: a second outbox over the file is the next launch; made paused, it waits for its subscriber.
        let relaunched = Outbox(
            store: store, environment: server, mutations: [AppendToPhone.self],
            retryPolicy: RetryPolicy(attempts: 2, initialDelay: .zero, jitter: .none), isPaused: true)
        var events = relaunched.events.makeAsyncIterator()
        await relaunched.send()
        #expect(await server.keys.isEmpty, "nothing sent before resume()")

        await relaunched.resume()
        var seen: [String] = []
        for _ in 0..<3 {
            switch await events.next() {
            case .sending(_, let attempt)?: seen.append("sending \(attempt)")
            case .willRetry?: seen.append("will retry")
            default: seen.append("other")
            }
        }
        #expect(seen == ["sending 1", "sending 2", "will retry"])
        #expect(try await relaunched.pendingCount() == 1)
    }

    @Test func aWriteRightAfterALaunchShowsThePendingMutationsOverItsNewServerValue() async throws {
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a"))
        let relaunched = ElementStore<Contact>(disk: try DiskCache(.file(path: store.disk.path)))
        let outbox = Outbox(store: relaunched, environment: server, mutations: [AppendToPhone.self], isPaused: true)
        try await relaunched.save(Contact(id: 1, phone: "ONE"))
        #expect(try await relaunched.element(id: 1)?.phone == "ONE+a", "the new server value, the mutation over it")
        #expect(try await outbox.pendingCount() == 1)
    }
}
