// The samples of the ContentLoadingRepository module's doc comments.
import ContentLoading
import ContentLoadingNetworking
import ContentLoadingRepository
import Foundation
import SellerContacts

/// What the doc comments' samples name and do not declare.
enum RepositoryDocComments {
    struct Contact: Codable, Sendable, Equatable, Identifiable {
        var id: Int
        var name: String?
        var phone = ""

        init(id: Int, name: String? = nil) {
            self.id = id
            self.name = name
        }
    }

    struct ContactsAPI: Sendable {
        func contacts(seller: SellerID) async throws -> [Contact] { [] }
        func contactsURL(_ seller: String) -> URL { URL(string: "https://api.example.com/\(seller)")! }
        func search(_ key: SearchKey) async throws -> [Contact] { [] }
        func search(_ query: String) async throws -> [Contact] { [] }
        func search(_ query: String, after cursor: String?) async throws -> Page<Contact, String> { Page(items: [], nextCursor: nil) }
        func search(_ query: String, after cursor: String?, ifNoneMatch: String?) async throws -> FetchResult<Page<Contact, String>> {
            .notModified(.none)
        }
        func contact(_ id: Contact.ID) async throws -> Contact { Contact(id: id) }
        func contacts(after cursor: String?) async throws -> Page<Contact, String> { Page(items: [], nextCursor: nil) }
        func contacts(after cursor: String?, ifNoneMatch: String?) async throws -> FetchResult<Page<Contact, String>> {
            .notModified(.none)
        }
        func sellerContacts() async throws -> [SellerContacts] { [] }
    }

    static func show(_ value: some Any) {}
    static func showBanner(_ error: any Error) {}

    // sample: Sources/Repository/Keyed/CacheKey.swift#1
    struct SellerID: CacheKey, Codable { let rawValue: Int }     // {"rawValue":42}
    struct SearchKey: CacheKey, Codable { let query: String; let page: Int }
    // end sample
}

/// The name the record sample extends.
typealias Contact = RepositoryDocComments.Contact

// sample: Sources/Repository/SQLite/SQLiteRecord.swift#1
extension Contact: SQLiteRecord {
    static let tableName = "contacts"
    static let migrations = ["CREATE TABLE contacts (id INTEGER PRIMARY KEY, name TEXT)"]
    static let columns = ["id", "name"]
    static let orderBy = "id"
    func bind(to statement: SQLiteStatement) throws {
        try statement.bind(id, at: 1)
        try statement.bind(name, at: 2)
    }
    init(row: SQLiteStatement) throws { self.init(id: row.int(at: 0), name: row.text(at: 1)) }
    static func bind(id: Int, to statement: SQLiteStatement, at index: Int32) throws {
        try statement.bind(id, at: index)
    }
}
// end sample

// MARK: - Keyed repositories

extension RepositoryDocComments {
    static func ages() -> CacheAges {
        // sample: Sources/Repository/Keyed/CacheAges.swift#1
        let ages = CacheAges(staleAfter: .seconds(60), expireAfter: .seconds(24 * 3_600))
        // end sample
        return ages
    }

    @MainActor static func cachedLoader(contacts: KeyedRepository<SellerID, [Contact]>, sellerID: SellerID) async -> Bool {
        // sample: Sources/Repository/Keyed/CachedContentLoader.swift#1
        let model = CachedContentLoader(repository: contacts)            // returnCacheThenLoad
        let refresh = model.refresh(sellerID)
        await refresh.settled()                                           // .success(cached) from disk
        let busy = model.isRefreshing                                     // true while the fetch runs
        await refresh.completed()                                         // .success(fetched), stored
        // end sample
        return busy
    }

    static func conditionalFetch(disk: DiskCache, client: APIClient, api: ContactsAPI) -> KeyedRepository<String, [Contact]> {
        // sample: Sources/Repository/Keyed/KeyedRepository+ConditionalFetch.swift#1
        let contacts = KeyedRepository<String, [Contact]>(disk: disk) { sellerID, validators in
            try await client.fetch([Contact].self, from: api.contactsURL(sellerID), ifChangedSince: validators)
        }
        // end sample
        return contacts
    }

    static func elementSave(api: ContactsAPI, edited: Contact) async throws {
        // sample: Sources/Repository/Keyed/KeyedRepository+Elements.swift#1
        let lists = KeyedRepository<SearchKey, [Contact]>(fetch: api.search)
        try await lists.save(element: edited)   // every list showing `edited.id` shows the edit
        // end sample
    }

    static func freshValue(contacts: KeyedRepository<SellerID, [Contact]>, sellerID: SellerID) async throws
        -> CachedValue<[Contact]>?
    {
        // sample: Sources/Repository/Keyed/KeyedRepository+FreshValues.swift#1
        let shown = try await contacts.freshValue(for: sellerID, maxAge: .seconds(60))   // at most a minute old
        // end sample
        return shown
    }

    static func update(contacts: ElementStore<Contact>, edited: Contact, newName: String) async throws {
        // sample: Sources/Repository/Records/ElementStore+Updates.swift#1
        try await contacts.update(id: edited.id) { stored in
            stored.map { var contact = $0; contact.name = newName; return contact }   // nil: nothing stored, nothing written
        }
        // end sample
    }

    static func update(contacts: KeyedRepository<SellerID, [Contact]>, sellerID: SellerID, added: Contact) async throws {
        // sample: Sources/Repository/Keyed/KeyedRepository+Updates.swift#1
        try await contacts.update(sellerID) { list in
            list.map { $0 + [added] }   // nothing held: nothing written, the next fetch brings it
        }
        // end sample
    }

    static func events(repository: KeyedRepository<SellerID, [Contact]>, sellerID: SellerID) async {
        // sample: Sources/Repository/Keyed/KeyedRepository+Events.swift#1
        for await event in repository.events(for: sellerID, policy: .returnCacheThenLoad) {
            if case .value(let cached) = event { print(cached.origin, cached.age, cached.value) }
        }
        // end sample
    }

    static func invalidations(
        searches: KeyedRepository<SearchKey, [Contact]>, feeds: KeyedRepository<String, [Contact]>,
        lists: KeyedRepository<String, [Contact]>, contact: Contact
    ) async -> [String] {
        // sample: Sources/Repository/Keyed/KeyedRepository+MatchingInvalidations.swift#1
        searches.invalidate { $0.query.hasPrefix("ada") }
        // end sample
        // sample: Sources/Repository/Keyed/KeyedRepository+MatchingInvalidations.swift#2
        feeds.invalidate(keysWithPrefix: "feed/")   // "feed/home", "feed/saved", …
        // end sample
        // sample: Sources/Repository/Keyed/KeyedRepository+MatchingInvalidations.swift#3
        let keys = await lists.invalidate(holding: contact.id)   // the server changed contact 42
        // end sample
        return keys
    }

    static func repository(api: ContactsAPI, cachePath: String, sellerID: SellerID, edited: [Contact]) async throws {
        // sample: Sources/Repository/Keyed/KeyedRepository.swift#1
        let contacts = KeyedRepository<SellerID, [Contact]>(
            memory: MemoryCache(countLimit: 50), disk: try DiskCache(.file(path: cachePath))
        ) { sellerID in try await api.contacts(seller: sellerID) }

        for await event in contacts.events(for: sellerID) { show(event) }   // .value (memory/disk/remote/local), .error
        try await contacts.save(edited, for: sellerID)                   // every reader of sellerID gets it, no request
        // end sample
    }
}

// MARK: - Records

extension RepositoryDocComments {
    static func removePages(contacts: ElementStore<Contact>) async throws {
        // sample: Sources/Repository/Records/ElementStore+Pages.swift#1
        try await contacts.removePages(of: "feed")   // the next feed opens from the server
        // end sample
    }

    static func elementStore(disk: DiskCache, api: ContactsAPI, edited: Contact) async throws
        -> (KeyedRepository<String, [Contact]>, KeyedRepository<Contact.ID, Contact>)
    {
        // sample: Sources/Repository/Records/ElementStore.swift#1
        let contacts = ElementStore<Contact>(disk: disk)
        let search = KeyedRepository<String, [Contact]>(elements: contacts) { query in try await api.search(query) }
        let detail = KeyedRepository<Contact.ID, Contact>(elements: contacts) { id in try await api.contact(id) }

        try await contacts.save(edited)   // one row; every list and detail holding edited.id shows it
        // end sample
        return (search, detail)
    }

    static func lists(contacts: ElementStore<Contact>, api: ContactsAPI)
        -> (KeyedRepository<String, [Contact]>, KeyedRepository<Contact.ID, Contact>)
    {
        // sample: Sources/Repository/Records/KeyedRepository+ElementStore.swift#1
        let search = KeyedRepository<String, [Contact]>(elements: contacts) { query in try await api.search(query) }
        // end sample
        // sample: Sources/Repository/Records/KeyedRepository+ElementStore.swift#2
        let detail = KeyedRepository<Contact.ID, Contact>(elements: contacts) { id in try await api.contact(id) }
        // end sample
        return (search, detail)
    }

    @MainActor static func persistedSearch(contacts: ElementStore<Contact>, api: ContactsAPI) async
        -> PagingListViewModel<String, Contact, String>
    {
        // sample: Sources/Repository/Records/PagingSource+Persisted.swift#1
        let results = PagingListViewModel<String, Contact, String>(
            source: .persisted(in: contacts, key: { "search/\($0)" }) { query, cursor, validators in
                try await api.search(query, after: cursor, ifNoneMatch: validators.entityTag)
            })
        await results.refresh("ada").completed()   // the pages stored for "ada", then the server's
        // end sample
        return results
    }

    @MainActor static func persistedSearchWithoutValidators(contacts: ElementStore<Contact>, api: ContactsAPI)
        -> PagingListViewModel<String, Contact, String>
    {
        // sample: Sources/Repository/Records/PagingSource+Persisted.swift#2
        let results = PagingListViewModel<String, Contact, String>(
            source: .persisted(in: contacts, key: { "search/\($0)" }) { query, cursor in
                try await api.search(query, after: cursor)
            })
        // end sample
        return results
    }

    @MainActor static func persistedFeeds(contacts: ElementStore<Contact>, api: ContactsAPI)
        -> [PagingListViewModel<Void, Contact, String>]
    {
        var feeds: [PagingListViewModel<Void, Contact, String>] = []
        do {
            // sample: Sources/Repository/Records/PagingSource+Persisted.swift#3
            let feed = PagingListViewModel(source: .persisted(in: contacts, key: "feed") { cursor, validators in
                try await api.contacts(after: cursor, ifNoneMatch: validators.entityTag)
            })
            // end sample
            feeds.append(feed)
        }
        do {
            // sample: Sources/Repository/Records/PagingSource+Persisted.swift#4
            let feed = PagingListViewModel(source: .persisted(in: contacts, key: "feed") { cursor in
                try await api.contacts(after: cursor)
            })
            // end sample
            feeds.append(feed)
        }
        return feeds
    }
}

// MARK: - Stores and the synchronizer

extension RepositoryDocComments {
    static func repositoryEvents(synchronizer: Synchronizer<SellerContacts>) async {
        // sample: Sources/Repository/Repository.swift#1
        let repository = Repository(synchronizer: synchronizer)
        for await event in repository.events() {
            switch event {
            case .value(let contacts): show(contacts)      // stored at once, updated after the sync
            case .error(let error): showBanner(error)       // the sync failed; values keep coming
            }
        }
        // end sample
    }

    static func sqliteStore(contacts: [SellerContacts]) async throws -> SQLiteStore<SellerContacts> {
        // sample: Sources/Repository/SQLite/SQLiteStore.swift#1
        let store = try SQLiteStore<SellerContacts>(.file(path: "/var/db/contacts.sqlite"))
        try await store.replaceAll(with: contacts, syncedAt: .now)
        // end sample
        return store
    }

    static func closeStore(_ store: SQLiteStore<SellerContacts>) async {
        // sample: Sources/Repository/SQLite/SQLiteStore.swift#2
        await store.close()   // e.g. before deleting or replacing the file
        // end sample
    }

    static func inMemoryStore() -> InMemoryStore<SellerContacts> {
        // sample: Sources/Repository/Store/InMemoryStore.swift#1
        let store = InMemoryStore<SellerContacts>(sortedBy: { $0.order < $1.order })
        // end sample
        return store
    }

    static func observe() async throws {
        // sample: Sources/Repository/Store/LocalStore.swift#1
        let store = try SQLiteStore<SellerContacts>(.file(path: "contacts.sqlite"))
        for await contacts in try await store.observe() { show(contacts) }   // now, then every change
        // end sample
    }

    static func synchronize(store: any LocalStore<SellerContacts>, api: ContactsAPI) async throws -> SyncOutcome {
        // sample: Sources/Repository/Sync/Synchronizer.swift#1
        let synchronizer = Synchronizer(store: store, freshness: .ifOlderThan(.seconds(300))) {
            try await api.sellerContacts()
        }
        let outcome = try await synchronizer.sync()   // .updated, .notModified or .skipped
        // end sample
        return outcome
    }
}

// MARK: - Tiers

extension RepositoryDocComments {
    static func diskCache() throws -> DiskCache {
        // sample: Sources/Repository/Tiers/DiskCache.swift#1
        let disk = try DiskCache(.file(path: "cache.sqlite"), byteLimit: 64 << 20)
        // end sample
        return disk
    }

    static func closeDiskCache(_ disk: DiskCache) async {
        // sample: Sources/Repository/Tiers/DiskCache.swift#2
        await disk.close()   // e.g. before deleting or replacing the file
        // end sample
    }

    static func memoryCache() -> MemoryCache<String, [Contact]> {
        // sample: Sources/Repository/Tiers/MemoryCache.swift#1
        let memory = MemoryCache<String, [Contact]>(countLimit: 100, costLimit: 4 << 20) { $0.count * 256 }
        // end sample
        return memory
    }
}

// MARK: - Writes

extension RepositoryDocComments {
    // sample: Sources/Repository/Writes/Mutation.swift#1
    struct Rename: Mutation {
        let id: Contact.ID
        let phone: String

        var elementID: Contact.ID { id }
        func apply(to contact: inout Contact) { contact.phone = phone }
        func send(using client: APIClient, context: MutationContext<Contact>) async throws -> MutationResult<Contact> {
            let url = URL(string: "https://api.example.com/contacts/\(id)")!
            let response = try await client.send(
                .put(url, body: context.edited, ifMatch: context.entityTag, idempotencyKey: context.idempotencyKey))
            return MutationResult(
                value: try client.decode(Contact.self, from: response.body, url: url), entityTag: response.validators.entityTag)
        }
    }
    // end sample

    struct Note: Codable, Sendable, Identifiable {
        var id: Int
        var tags: Set<String> = []
    }

    struct Tag: Mutation {
        let id: Note.ID
        let tag: String

        var elementID: Note.ID { id }
        func apply(to note: inout Note) { note.tags.insert(tag) }
        func send(using client: APIClient, context: MutationContext<Note>) async throws -> MutationResult<Note> {
            MutationResult(value: context.edited, entityTag: nil)
        }

        // sample: Sources/Repository/Writes/Mutation.swift#2
        func resolve(_ conflict: MutationConflict<Note>) -> ConflictResolution { .merge }
        func merge(_ conflict: MutationConflict<Note>) -> Note? {
            guard var note = conflict.server else { return conflict.local }
            note.tags.formUnion(conflict.local?.tags ?? [])   // both sides' tags
            return note
        }
        // end sample
    }

    struct Rephone: Mutation {
        let id: Contact.ID
        let phone: String

        var elementID: Contact.ID { id }
        func apply(to contact: inout Contact) { contact.phone = phone }
        func send(using client: APIClient, context: MutationContext<Contact>) async throws -> MutationResult<Contact> {
            let url = URL(string: "https://api.example.com/contacts/\(id)")!
            // sample: Sources/Repository/Writes/MutationResult.swift#1
            let response = try await client.send(.put(url, body: context.edited, ifMatch: context.entityTag))
            return MutationResult(value: try client.decode(Contact.self, from: response.body, url: url), entityTag: response.validators.entityTag)
            // end sample
        }
    }

    static func outbox(contacts: ElementStore<Contact>, client: APIClient) async throws -> Outbox<Contact, APIClient> {
        // sample: Sources/Repository/Writes/Outbox.swift#1
        let outbox = Outbox(store: contacts, environment: client, mutations: [Rename.self])
        try await outbox.perform(Rename(id: 42, phone: "+1 555 0100"))   // every screen shows it at once
        // end sample
        return outbox
    }

    static func notSent(outbox: Outbox<Contact, APIClient>, cached: CachedValue<[Contact]>) async throws -> Int {
        // sample: Sources/Repository/Writes/Outbox.swift#2
        let notSent = try await outbox.pendingCount(in: cached.value)   // "2 changes not sent yet"
        // end sample
        return notSent
    }
}
