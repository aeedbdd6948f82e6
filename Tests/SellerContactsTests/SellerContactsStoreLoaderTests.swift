import ContentLoading
import ContentLoadingNetworking
import ContentLoadingRepository
import ContentLoadingTesting
import Foundation
import KitTestSupport
import SellerContacts
import Testing

@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct SellerContactsStoreLoaderTests {
    let stored = [SellerContacts(address: "Old Street", order: 1, phone: "+1 555 0000")]

    private func loader(fixture: String) throws -> (SellerContactsStoreLoader, InMemoryStore<SellerContacts>) {
        let store = try InMemoryStore<SellerContacts>(sortedBy: { $0.order < $1.order }, elements: stored)
        let api = SellerContactsAPIManager(urlStore: try TestSellerContactsURLStore(fixture: fixture))
        return (
            SellerContactsStoreLoader(repository: SellerContactsRepository.repository(store: store, apiManager: api)),
            store
        )
    }

    @Test func showsStoredContactsAtOnceThenTheSyncedOnes() async throws {
        let (model, _) = try loader(fixture: "contacts")
        let recorder = StateRecorder(model)
        model.refresh()
        let states = try await recorder.states(count: 4)
        #expect(states[2] == .success(stored))
        #expect(states[3].value?.map(\.order) == [1, 2, 3])
        #expect(states[3].value?.first?.phone == "+1 555 0101")
    }

    @Test func failedSyncShowsAnErrorWithTheStoredContactsAndKeepsObserving() async throws {
        let (model, store) = try loader(fixture: "malformed")
        let screen = ContactsScreen(loader: model)
        let recorder = StateRecorder(model)
        model.refresh()
        let states = try await recorder.states(count: 4)
        #expect(states[3].phase == .error)
        #expect(states[3].content == stored, "the stored contacts stay shown")
        try await store.write([SellerContacts(address: "New Road", order: 0, phone: "+1 555 9999")])
        #expect(try await recorder.states(count: 5).last?.value?.first?.phone == "+1 555 9999")
        var displays = screen.displayUpdates.makeAsyncIterator()
        var display = await displays.next()
        while display?.phoneText != "+1 555 9999" { display = await displays.next() }
        #expect(display?.alert != nil, "the sync error was presented and the binding went on")
    }
}
