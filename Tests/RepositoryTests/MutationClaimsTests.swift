import ContentLoadingSupport
import Foundation
import KitTestSupport
import Testing

@testable import ContentLoadingRepository

/// The claims every outbox over one connection makes on the pending mutations: one claim at a
/// time, a conflict held by one outbox left to it, the outboxes turned away woken once when the
/// mutation is let go, and a mutation that left the queue never claimed again.
struct MutationClaimsTests {
    /// An outbox's identity and a count of its wake-ups.
    final class FakeOutbox: Sendable {
        let wakeUps = Locked(0)
        var owner: MutationClaims.Owner {
            MutationClaims.Owner(id: ObjectIdentifier(self)) { [wakeUps] in wakeUps.withLock { $0 += 1 } }
        }
        var woken: Int { wakeUps.withLock { $0 } }
    }

    let claims = MutationClaims()
    let first = FakeOutbox()
    let second = FakeOutbox()

    @Test func oneClaimAtATimeAndTheOneTurnedAwayIsWokenOnceWhenItIsLetGo() {
        #expect(claims.claim(1, for: first.owner) == .claimed)
        #expect(claims.claim(1, for: second.owner) == .taken)
        #expect(claims.claim(1, for: first.owner) == .taken, "a second call of the same outbox too")
        #expect(claims.claim(2, for: second.owner) == .claimed, "another mutation is free")
        #expect(second.woken == 0)

        claims.release(1)
        #expect(second.woken == 1)
        #expect(first.woken == 1)
        claims.release(2)
        #expect(second.woken == 1, "woken once per time turned away")
        #expect(claims.claim(1, for: second.owner) == .claimed)
    }

    @Test func aMutationThatLeftTheQueueIsNotClaimedByARunThatBeganBefore() {
        let run = claims.beginRun()
        #expect(claims.claim(1, for: first.owner) == .claimed)
        #expect(claims.claim(1, for: second.owner) == .taken)
        claims.retire(1)
        #expect(second.woken == 1)
        #expect(claims.claim(1, for: second.owner) == .retired, "a run that read it before skips it")
        #expect(claims.claim(1, for: first.owner) == .retired)
        claims.endRun(run)
        #expect(claims.retiredCount == 0, "forgotten once no such run goes")
    }

    @Test func whatLeftTheQueueIsRememberedOnlyWhileARunThatBeganBeforeGoes() {
        let early = claims.beginRun()
        claims.retire(1)
        let late = claims.beginRun()
        claims.retire(2)
        #expect(claims.retiredCount == 2)
        claims.endRun(early)
        #expect(claims.retiredCount == 1, "the later run read the file after 1 left")
        #expect(claims.claim(2, for: first.owner) == .retired)
        claims.endRun(late)
        #expect(claims.retiredCount == 0)
        claims.retire(3)
        #expect(claims.retiredCount == 0, "no run going: nothing to remember")
    }

    @Test func aConflictOneOutboxHoldsIsClaimedOnlyByItUntilTheHoldEnds() {
        claims.hold(1, for: ObjectIdentifier(first))
        #expect(claims.claim(1, for: second.owner) == .taken)
        #expect(claims.claim(1, for: first.owner) == .claimed, "its own resolution or cancel")
        claims.release(1)
        #expect(claims.claim(1, for: second.owner) == .taken, "still held")

        claims.endHolds([1])
        #expect(second.woken == 2)
        #expect(claims.claim(1, for: second.owner) == .claimed)
    }

    @Test func aMutationSentOrCancelledIsRetiredForEveryOutboxOverTheConnection() async throws {
        typealias Contact = ElementStoreTests.Contact
        let server = ContactServer([Contact(id: 1, phone: "one")])
        let store = ElementStore<Contact>(disk: try DiskCache(.file(path: try temporaryCachePath())))
        try await store.save(Contact(id: 1, phone: "one"))
        let outbox = Outbox(store: store, environment: server, mutations: [AppendToPhone.self], isPaused: true)
        let other = Outbox(store: store, environment: server, mutations: [AppendToPhone.self], isPaused: true)
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+sent"))
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+cancelled"))
        let pending = try await outbox.pendingMutations()
        // NB: a run of the other outbox that read them before they left the queue.
        let run = other.claims.beginRun()
        #expect(try await outbox.cancel(pending[1]))
        await outbox.resume()

        #expect(other.claim(pending[0].sequence) == .retired)
        #expect(other.claim(pending[1].sequence) == .retired)
        #expect(await server.phone(of: 1) == "one+sent")
        other.claims.endRun(run)
        #expect(other.claims.retiredCount == 0)
    }

    @Test func whatAPurgeRemovedIsNotClaimedByARunThatBeganBefore() {
        let run = claims.beginRun()
        claims.retire(through: 5)
        #expect(claims.claim(3, for: first.owner) == .retired)
        #expect(claims.claim(5, for: first.owner) == .retired)
        #expect(claims.claim(6, for: first.owner) == .claimed, "performed after the purge")
        claims.endRun(run)
        #expect(claims.claim(3, for: first.owner) == .claimed, "forgotten once no such run goes")
    }

    @Test func aPurgeWaitsForEveryClaimAndNothingIsClaimedUntilItEnds() async throws {
        #expect(claims.claim(1, for: first.owner) == .claimed)
        let claims = claims
        let purging = Task { await claims.beginPurge() }
        try #require(await yieldUntil { claims.isPurging })
        #expect(claims.claim(2, for: second.owner) == .taken, "none starts meanwhile")
        claims.release(1)
        await purging.value
        #expect(second.woken == 1, "woken when 1 was let go")
        #expect(claims.claim(2, for: second.owner) == .taken, "still purging")
        claims.endPurge()
        #expect(second.woken == 2, "woken when the purge ended")
        #expect(claims.claim(2, for: second.owner) == .claimed)
    }

    @Test func aCallWaitingForAMutationToBeLetGoResumesWhenItIs() async throws {
        #expect(await !claims.letGo(1), "not claimed: no wait")
        #expect(claims.claim(1, for: first.owner) == .claimed)
        let claims = claims
        let waiting = Task { await claims.letGo(1) }
        try #require(await yieldUntil { claims.letGoWaiterCount(1) == 1 })
        claims.release(1)
        #expect(await waiting.value)
        #expect(claims.letGoWaiterCount(1) == 0)
    }

    /// The moment after a run told `.willRetry` and before it let go of the mutation: a cancel
    /// then waits for it, rather than say the mutation is being sent.
    @Test func aCancelRightAfterAWillRetryWaitsForTheRunToLetGo() async throws {
        typealias Contact = ElementStoreTests.Contact
        let store = ElementStore<Contact>(disk: try DiskCache(.file(path: try temporaryCachePath())))
        try await store.save(Contact(id: 1, phone: "one"))
        let outbox = Outbox(
            store: store, environment: ContactServer([]), mutations: [AppendToPhone.self], isPaused: true)
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a"))
        let pending = try #require(try await outbox.pendingMutations().first)
        // NB: as the run does: the mutation claimed, the app told, then let go.
        #expect(outbox.claim(pending.sequence) == .claimed)
        outbox.waitForRetry(pending, CancellationError())
        let cancelling = Task { try await outbox.cancel(pending) }
        try #require(await yieldUntil { outbox.claims.letGoWaiterCount(pending.sequence) == 1 })
        outbox.release(pending.sequence)
        #expect(try await cancelling.value, "cancelled, not \"being sent\"")
        #expect(try await store.element(id: 1)?.phone == "one")
    }
}
