import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// A request that got no answer (the server unreachable) is sent again as that same request
/// while nothing new is learned of the element, and made again over what the store holds once
/// something is: also when the element's server value is back to the one the request went with,
/// learned again with another entity tag (or none). Found by `OutboxInterleavingTests` (seed
/// 7374411706819555578): the request went again with the entity tag of the copy it was first
/// made on, and met a conflict the store's copy does not have.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct OutboxResendTests {
    typealias Contact = ElementStoreTests.Contact

    let server = ContactServer([Contact(id: 1, phone: "one"), Contact(id: 2, phone: "two")])
    let store: ElementStore<Contact>
    let lists: KeyedRepository<String, [Contact]>
    let details: KeyedRepository<Int, Contact>
    let outbox: Outbox<Contact, ContactServer>

    init() throws {
        store = ElementStore<Contact>(disk: try DiskCache(.file(path: try temporaryCachePath())))
        let server = server
        lists = KeyedRepository(elements: store) { _ in try await server.all() }
        details = server.conditionalDetails(over: store)
        outbox = Outbox(
            store: store, environment: server, mutations: [AppendToPhone.self],
            retryPolicy: RetryPolicy(attempts: 1), isPaused: true)
    }

    /// Contact 1 fetched (entity tag `v1`), `+a` performed (the app asked on a conflict) and
    /// sent while the server is unreachable: it waits to be sent again.
    func performWhileOffline() async throws {
        try await details.refresh(1)
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a", onConflict: "ask"))
        await server.setOnline(false)
        await sendAll()
        #expect(try await outbox.pendingCount() == 1, "a transient failure leaves it pending")
        await server.setOnline(true)
    }

    /// Sends what is pending (the outbox stays paused after).
    func sendAll() async {
        await outbox.resume()
        outbox.pause()
    }

    @Test func aServerValueBackToTheOneSentOverWithANewEntityTagIsSentWithThatTag() async throws {
        try await performWhileOffline()
        // NB: changed by someone else and back: the same value, the entity tag `v3`.
        await server.setPhone(of: 1, to: "uno")
        await server.setPhone(of: 1, to: "one")
        try await details.refresh(1)
        await sendAll()
        #expect(try await outbox.pendingCount() == 0, "sent with the entity tag held, no conflict")
        #expect(await server.phone(of: 1) == "one+a")
        #expect(try await store.element(id: 1)?.phone == "one+a")
    }

    /// A save, then a list (which carries no entity tag per element) bringing the value the
    /// request went over: the mutation goes without `If-Match`, as any made over an element
    /// learned from a list does (and overwrites what the server holds; see "Conflicts are never
    /// silent" in the Offline edits article).
    @Test func aSaveThenAListBringingTheValueSentOverMakesTheRequestAgain() async throws {
        try await performWhileOffline()
        try await store.save(Contact(id: 1, phone: "local"))
        try await lists.refresh("all")
        await server.setPhone(of: 1, to: "uno")
        await sendAll()
        #expect(try await outbox.pendingCount() == 0, "made again without If-Match, no conflict")
        #expect(await server.phone(of: 1) == "one+a")
        #expect(try await store.element(id: 1)?.phone == "one+a")
    }

    /// Control: nothing learned since, the request goes again as it was, with its entity tag,
    /// and meets the server's change as a conflict, held for the app.
    @Test func nothingLearnedSinceSendsTheSameRequestAgain() async throws {
        try await performWhileOffline()
        await server.setPhone(of: 1, to: "uno")
        await sendAll()
        #expect(try await outbox.pendingCount() == 1, "a conflict, held for the app")
        #expect(await server.phone(of: 1) == "uno")
        let keys = await server.keys
        #expect(keys.count == 2 && keys[0] == keys[1], "sent again under the same key")
    }
}
