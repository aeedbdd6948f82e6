// The samples of "Caching" (Caching.md).
import ContentLoading
import ContentLoadingNetworking
import ContentLoadingRepository
import Foundation

#if canImport(SwiftUI)
    import SwiftUI
#endif

public enum Caching {
    public typealias SellerID = String
    public struct Contact: Codable, Sendable, Equatable, Identifiable {
        public let id: Int
        public var phone = ""

        public init(id: Int, phone: String = "") {
            self.id = id
            self.phone = phone
        }
    }

    /// A server of contacts for the records sample.
    public protocol RecordsAPI: Sendable {
        func search(_ query: String) async throws -> [Contact]
        func contact(_ id: Contact.ID) async throws -> Contact
    }

    struct ContactsAPI: Sendable {
        func contacts(seller: SellerID) async throws -> [Contact] { [] }
        func contactsURL(_ seller: SellerID) -> URL { URL(string: "https://api.example.com/\(seller)")! }
    }

    struct ContactRow: View {
        let contact: Contact
        var body: some View { Text("\(contact.id)") }
    }

    static func show(_ contacts: [Contact], from origin: CacheOrigin, age: Duration) {}
    static func showPlaceholder() {}
    static func showBanner(_ error: any Error) {}

    static func reads(api: ContactsAPI, cachePath: String, sellerID: SellerID, edited: [Contact]) async throws {
        // sample: Sources/Repository/ContentLoadingRepository.docc/Caching.md#1
        let contacts = KeyedRepository<SellerID, [Contact]>(
            memory: MemoryCache(countLimit: 50),
            disk: try DiskCache(.file(path: cachePath)),
            ages: CacheAges(staleAfter: .seconds(300), expireAfter: .seconds(86_400))
        ) { sellerID in try await api.contacts(seller: sellerID) }

        for await event in contacts.events(for: sellerID, policy: .returnCacheThenLoad) {
            switch event {
            case .value(let cached): show(cached.value, from: cached.origin, age: cached.age)
            case .noValue: showPlaceholder()
            case .error(let error): showBanner(error)      // values keep coming
            }
        }
        try await contacts.save(edited, for: sellerID)    // every reader of sellerID gets it, no request
        // end sample
    }

    /// The records sample: saves `edited` and returns the detail it opens, with the lists
    /// `search` found for "a".
    public static func records(api: RecordsAPI, cachePath: String, edited: Contact) async throws
        -> (opened: CachedValue<Contact>?, listed: [Contact]?)
    {
        // sample: Sources/Repository/ContentLoadingRepository.docc/Caching.md#2
        let contacts = ElementStore<Contact>(disk: try DiskCache(.file(path: cachePath)))
        let search = KeyedRepository<String, [Contact]>(elements: contacts) { query in try await api.search(query) }
        let detail = KeyedRepository<Contact.ID, Contact>(elements: contacts) { id in try await api.contact(id) }

        try await contacts.save(edited)                       // one row: every list and detail holding it shows it
        let opened = try await detail.value(for: edited.id)   // from the element's row: no request
        // end sample
        return (opened, try await search.value(for: "a", policy: .returnCacheDontLoad)?.value)
    }

    @MainActor static func model(contacts: KeyedRepository<SellerID, [Contact]>, sellerID: SellerID) async {
        // sample: Sources/Repository/ContentLoadingRepository.docc/Caching.md#3
        let model = CachedContentLoader(repository: contacts)      // returnCacheThenLoad
        model.refresh(sellerID)          // unloaded → success(from disk), isRefreshing → success(fetched)
        // end sample
    }

    struct Screen: View {
        let model: CachedContentLoader<SellerID, [Contact]>
        let sellerID: SellerID

        var body: some View {
            // sample: Sources/Repository/ContentLoadingRepository.docc/Caching.md#4
            List(model.content ?? []) { ContactRow(contact: $0) }
                .refreshable { await model.refresh(sellerID).completed() }   // spins until the fetch is stored
            // end sample
        }
    }

    @MainActor static func command(model: CachedContentLoader<SellerID, [Contact]>, sellerID: SellerID) async {
        // sample: Sources/Repository/ContentLoadingRepository.docc/Caching.md#5
        let state = await model.refresh(sellerID).completed()   // then print it and exit
        // end sample
        _ = state
    }

    /// The sign-out sample: removes what an account left in the file.
    public static func signOut(
        outbox: Outbox<Contact, APIClient>, search: KeyedRepository<String, [Contact]>,
        detail: KeyedRepository<Contact.ID, Contact>, contacts: ElementStore<Contact>
    ) async throws {
        // sample: Sources/Repository/ContentLoadingRepository.docc/Caching.md#7
        try await outbox.purge()                               // the edits not sent yet
        try await search.removeAll()                           // the lists, with the elements only they held
        try await detail.removeAll()                           // every element of the type
        try await contacts.removePages(ofKeysWithPrefix: "")   // the stored pages of every paged list
        // end sample
    }

    static func conditional(disk: DiskCache, client: APIClient, api: ContactsAPI) {
        // sample: Sources/Repository/ContentLoadingRepository.docc/Caching.md#6
        let contacts = KeyedRepository<String, [Contact]>(disk: disk, retry: RetryPolicy(attempts: 3)) {
            sellerID, validators in
            try await client.fetch([Contact].self, from: api.contactsURL(sellerID), ifChangedSince: validators)
        }
        // end sample
        _ = contacts
    }
}
