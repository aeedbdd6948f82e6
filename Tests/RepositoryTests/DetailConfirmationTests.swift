import ContentLoading
import ContentLoadingRepository
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// A detail's 304 (or equal fetch) confirms the element as it read it before the request
/// ended. An element change that lands in the file meanwhile waits for the detail's write lock,
/// and reaches the detail after the confirmation: the detail, its readers and the file then
/// show the change.
///
/// Each test holds the confirmation's disk write, makes the change (a list over the store,
/// which hears changes before the details, shows it once it is stored), then lets the
/// confirmation go on. The records interleavings found the first: an outbox mutation performed
/// during a detail's refresh answered 304 left the detail showing the server's value while the
/// file (and every list) showed the mutation.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct DetailConfirmationTests {
    typealias Contact = ElementStoreTests.Contact

    let disk: DiskCache
    let store: ElementStore<Contact>
    let server = ContactServer([Contact(id: 1, phone: "one")])
    /// Made before the details, so it hears a change before them.
    let list: KeyedRepository<String, [Contact]>
    /// Fetched conditionally, with the contact's entity tag: a 304 while the server's contact
    /// did not change.
    let details: KeyedRepository<Int, Contact>
    let outbox: Outbox<Contact, ContactServer>

    init() async throws {
        disk = try DiskCache(.file(path: try temporaryCachePath()))
        store = ElementStore<Contact>(disk: disk)
        let server = server
        list = KeyedRepository(elements: store) { _ in try await server.all() }
        details = server.conditionalDetails(over: store)
        outbox = Outbox(
            store: store, environment: server, mutations: [AppendToPhone.self], retryPolicy: RetryPolicy(attempts: 1),
            isPaused: true)
        try await list.refresh("all")
        try await details.refresh(1)
    }

    /// Starts a refresh of detail 1 (a 304) and holds its confirmation before it writes; runs
    /// `change`, then `stored` (which returns once the list shows the change), then lets the
    /// confirmation go on.
    func confirmingDetail(
        during change: @escaping @MainActor () async throws -> Void, stored: () async throws -> Void
    ) async throws {
        let hold = await DiskHold(disk)
        let refresh = Task { try await details.refresh(1) }
        await hold.writeReached()
        let changing = Task { try await change() }
        try await stored()
        hold.release()
        #expect(try await refresh.value == .notModified, "the server's contact did not change: a 304")
        try await changing.value
    }

    /// A reader of the list and one of detail 1, each given its first value.
    func readers() async throws -> (StreamRecorder<CacheEvent<[Contact]>>, StreamRecorder<CacheEvent<Contact>>) {
        let shown = record(list.events(for: "all", policy: .returnCacheDontLoad))
        let detail = record(details.events(for: 1, policy: .returnCacheDontLoad))
        _ = try await shown.values(count: 1)
        _ = try await detail.values(count: 1)
        return (shown, detail)
    }

    @Test func aMutationPerformedWhileA304ConfirmsTheDetailReachesItAndItsReaders() async throws {
        let (shown, detail) = try await readers()

        try await confirmingDetail {
            try await outbox.perform(AppendToPhone(id: 1, suffix: "+a"))
        } stored: {
            let phones = try await shown.values(count: 2).last?.cachedValue?.value.map(\.phone)
            #expect(phones == ["one+a"])
        }
        #expect(try await store.element(id: 1)?.phone == "one+a", "the file holds the mutation")
        #expect(try await details.value(for: 1, policy: .returnCacheDontLoad)?.value.phone == "one+a")
        let last = try await detail.values(count: 2).last?.cachedValue
        #expect(last?.value.phone == "one+a", "the detail's reader, given the confirmation, gets the mutation too")
        #expect(last?.origin == .pending)
    }

    @Test func aRemovalWhileA304ConfirmsTheDetailStands() async throws {
        let (shown, detail) = try await readers()

        try await confirmingDetail {
            try await store.remove(id: 1)
        } stored: {
            let contacts = try await shown.values(count: 2).last?.cachedValue?.value
            #expect(contacts == [])
        }
        #expect(try await store.element(id: 1) == nil, "the file keeps the removal")
        #expect(try await details.value(for: 1, policy: .returnCacheDontLoad) == nil, "memory does not bring it back")
        #expect(try await detail.values(count: 2).last == .noValue, "the detail's reader is told")
    }
}
