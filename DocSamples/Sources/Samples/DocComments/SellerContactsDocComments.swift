// The samples of the SellerContacts example's doc comments.
import ContentLoading
import ContentLoadingNetworking
import ContentLoadingRepository
import Foundation
import SellerContacts

#if canImport(SwiftUI)
    import SwiftUI
#endif

/// What the doc comments' samples name and do not declare.
enum SellerContactsDocComments {
    struct Held: Sendable {
        var validators = Validators.none
    }

    static func read(api: SellerContactsAPIManager) async throws -> (SellerContacts, String?) {
        // sample: Sources/SellerContacts/Loading/SellerContactsAPIManager+Writes.swift#1
        let (current, etag) = try await api.contact(order: 2)
        // end sample
        return (current, etag)
    }

    static func update(api: SellerContactsAPIManager, edited: SellerContacts, etag: String?, key: String) async throws
        -> SellerContacts?
    {
        // sample: Sources/SellerContacts/Loading/SellerContactsAPIManager+Writes.swift#2
        let saved = try await api.update(edited, ifMatch: etag, idempotencyKey: key)
        // end sample
        return saved.contact
    }

    static func bundled() async throws -> [SellerContacts] {
        // sample: Sources/SellerContacts/Loading/SellerContactsAPIManager.swift#1
        let api = SellerContactsAPIManager(urlStore: BundledSellerContactsURLStore())
        let contacts = try await api.sellerContacts()
        // end sample
        return contacts
    }

    static func conditional(api: SellerContactsAPIManager, held: Held) async throws -> FetchResult<[SellerContacts]> {
        // sample: Sources/SellerContacts/Loading/SellerContactsAPIManager.swift#2
        let result = try await api.sellerContacts(ifChangedSince: held.validators)
        // end sample
        return result
    }

    @MainActor static func loader() async -> ContentLoadingState<[SellerContacts]> {
        // sample: Sources/SellerContacts/Loading/SellerContactsLoader.swift#1
        let loader = SellerContactsLoader(apiManager: SellerContactsAPIManager(urlStore: BundledSellerContactsURLStore()))
        let state = await loader.refresh().settled()   // .success([…]) sorted by order
        // end sample
        return state
    }

    @MainActor static func storeLoader(base: URL) throws -> SellerContactsStoreLoader {
        // sample: Sources/SellerContacts/Storage/SellerContactsRepository.swift#1
        let repository = try SellerContactsRepository.sqlite(
            path: "contacts.sqlite", apiManager: SellerContactsAPIManager(urlStore: LiveSellerContactsURLStore(baseURL: base)))
        let loader = SellerContactsStoreLoader(repository: repository)
        loader.refresh()   // stored contacts at once, updated ones after the sync, or an error with them kept
        // end sample
        return loader
    }

    static func liveURL() -> URL {
        // sample: Sources/SellerContacts/URLStores/LiveSellerContactsURLStore.swift#1
        let store = LiveSellerContactsURLStore(baseURL: URL(string: "https://api.example.com/v1/")!)
        let url = store.sellerContactsURL   // https://api.example.com/v1/seller/contacts
        // end sample
        return url
    }

    static func phoneEdit(contacts: ElementStore<SellerContacts>, api: SellerContactsAPIManager) async throws
        -> Outbox<SellerContacts, SellerContactsAPIManager>
    {
        // sample: Sources/SellerContacts/Writes/PhoneEdit.swift#1
        let outbox = Outbox(store: contacts, environment: api, mutations: [PhoneEdit.self])
        try await outbox.perform(PhoneEdit(order: 2, phone: "+1 555 0199"))
        // end sample
        return outbox
    }

    @MainActor static func screen(loader: ContentLoadingViewModel<Void, [SellerContacts]>) -> ContactsScreen {
        // sample: Sources/SellerContacts/Screen/ContactsScreen.swift#1
        let screen = ContactsScreen(loader: loader)
        loader.refresh()
        // end sample
        return screen
    }

    struct ContactsView: View {
        let screen: ContactsScreen

        var body: some View {
            // sample: Sources/SellerContacts/Screen/ContactsScreen.swift#2
            VStack {
                Text(screen.phoneText)
                Button("Call") {}.disabled(!screen.isCallEnabled)
            }
            .alert(screen.alert?.title ?? "", isPresented: .constant(screen.alert != nil)) {
                Button("OK") { screen.choose(.ok) }
            } message: { Text(screen.alert?.message ?? "") }
            // end sample
        }
    }
}
