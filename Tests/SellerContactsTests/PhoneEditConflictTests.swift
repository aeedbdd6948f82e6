import ContentLoading
import ContentLoadingRepository
import Foundation
import KitTestSupport
import SellerContacts
import Testing

/// `PhoneEdit` against the fixture server (a real process): a contact that came in the list
/// has no entity tag of its own, so the edit reads it before its `PUT`. A change made on the
/// server since the copy the edit was made on is a conflict, never overwritten in silence.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct PhoneEditConflictTests {
    /// The server seeded with contacts 1 and 2, the list fetched into a store, and an outbox.
    struct Launch {
        let server: LocalHTTPServer
        let api: SellerContactsAPIManager
        let contacts: ElementStore<SellerContacts>
        let outbox: Outbox<SellerContacts, SellerContactsAPIManager>

        init() async throws {
            server = try LocalHTTPServer.start()
            let api = SellerContactsAPIManager(urlStore: FixedSellerContactsURLStore(server.url("contacts")))
            self.api = api
            for contact in [SellerContacts(order: 1, phone: "one"), SellerContacts(order: 2, phone: "two")] {
                _ = try await api.update(contact, ifMatch: nil, idempotencyKey: UUID().uuidString)
            }
            let path = try makeTemporaryDirectory().appendingPathComponent("contacts.sqlite").path
            contacts = ElementStore(disk: try DiskCache(.file(path: path)))
            try await KeyedRepository<String, [SellerContacts]>(elements: contacts) { _ in
                try await api.sellerContacts()
            }
            .refresh("all")
            outbox = Outbox(store: contacts, environment: api, mutations: [PhoneEdit.self])
        }

        /// Writes `contact` on the server as another client would (no `If-Match`).
        func overwrite(_ contact: SellerContacts) async throws {
            _ = try await api.update(contact, ifMatch: nil, idempotencyKey: UUID().uuidString)
        }

        /// Performs `edit` and returns how it ended: "confirmed", "conflict serverWins", …; once
        /// the queue has stopped, so the store shows the end.
        ///
        /// NB: `send()` joins the queue's run and returns when it has stopped: a conflict the
        /// client wins is told before the mutation is sent again.
        func outcome(of edit: PhoneEdit) async throws -> String {
            var events = outbox.events.makeAsyncIterator()
            try await outbox.perform(edit)
            var outcome = "no outcome"
            while let event = await events.next() {
                switch event {
                case .sending: continue
                case .confirmed: outcome = "confirmed"
                case .conflict(_, _, let resolution): outcome = "conflict \(resolution)"
                default: outcome = "\(event)"
                }
                break
            }
            await outbox.send()
            return outcome
        }
    }

    @Test func aContactChangedOnTheServerSinceTheListWasFetchedIsAConflictTheServerWins() async throws {
        let launch = try await Launch()
        defer { launch.server.stop() }
        try await launch.overwrite(SellerContacts(order: 2, phone: "theirs"))

        #expect(try await launch.outcome(of: PhoneEdit(order: 2, phone: "mine")) == "conflict serverWins")
        #expect(try await launch.api.contact(order: 2).contact.phone == "theirs", "the server's change stays")
        #expect(try await launch.contacts.element(id: 2)?.phone == "theirs", "the store takes the server's contact")
        #expect(try await launch.outbox.pendingCount() == 0)
    }

    @Test func anUnchangedContactTakesTheEditAndItsEntityTagGuardsTheNextOne() async throws {
        let launch = try await Launch()
        defer { launch.server.stop() }

        #expect(try await launch.outcome(of: PhoneEdit(order: 2, phone: "mine")) == "confirmed")
        #expect(try await launch.api.contact(order: 2).contact.phone == "mine")
        try await launch.overwrite(SellerContacts(order: 2, phone: "theirs"))
        #expect(try await launch.outcome(of: PhoneEdit(order: 2, phone: "again")) == "conflict serverWins")
        #expect(try await launch.api.contact(order: 2).contact.phone == "theirs")
    }

    @Test func aServerThatHoldsTheEditAlreadyIsNoConflict() async throws {
        // NB: as after a kill between the server applying the PUT and the app storing its answer.
        let launch = try await Launch()
        defer { launch.server.stop() }
        try await launch.overwrite(SellerContacts(order: 2, phone: "mine"))

        #expect(try await launch.outcome(of: PhoneEdit(order: 2, phone: "mine")) == "confirmed")
        #expect(try await launch.contacts.element(id: 2)?.phone == "mine")
    }
}
