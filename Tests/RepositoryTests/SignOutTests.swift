import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import Foundation
import KitTestSupport
import Testing

/// A sign-out as the Caching article says to make one: nothing of the account stays in the
/// file (no element, list, page, pending mutation or server value), so the next account opens
/// with nothing of it, offline too.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct SignOutTests {
    typealias Contact = ElementStoreTests.Contact

    @Test func aSignOutLeavesNothingOfTheAccountInTheFile() async throws {
        let path = try temporaryCachePath()
        let server = ContactServer([Contact(id: 1, phone: "one"), Contact(id: 2, phone: "two")])
        let catalog = PagedCatalog(count: 6, pageSize: 2)
        let contacts = ElementStore<Contact>(disk: try DiskCache(.file(path: path)))
        let lists = KeyedRepository<String, [Contact]>(elements: contacts) { _ in try await server.all() }
        let details = KeyedRepository<Int, Contact>(elements: contacts) { id, _ in
            let (contact, entityTag) = try await server.contact(id)
            return .modified(contact, Validators(entityTag: entityTag, lastModified: nil, freshness: nil))
        }
        let feed = PagingListViewModel<Void, Contact, String>(
            source: .persisted(in: contacts, key: "feed") { cursor, validators in
                try await catalog.page(cursor, validators: validators)
            })
        let outbox = Outbox(
            store: contacts, environment: server, mutations: [AppendToPhone.self], isPaused: true)
        try await lists.refresh("all")
        try await details.refresh(1)
        await feed.refresh().completed()
        await feed.loadNextPage().settled()
        let search = PagingListViewModel<Void, Contact, String>(
            source: .persisted(in: contacts, key: "search/private words") { cursor, validators in
                try await catalog.page(cursor, validators: validators)
            })
        await search.refresh().completed()
        try await outbox.perform(AppendToPhone(id: 1, suffix: "+a"))

        // The sign-out the Caching article shows.
        try await outbox.purge()
        try await lists.removeAll()
        try await details.removeAll()
        try await contacts.removePages(ofKeysWithPrefix: "")

        let tables = [
            "content_loading_elements", "content_loading_list_members", "content_loading_list_pages",
            "content_loading_cache", "content_loading_cache_values", "content_loading_outbox",
            "content_loading_element_bases",
        ]
        for table in tables {
            #expect(try sqlRows("SELECT count(*) FROM \(table)", in: path) == ["0"], "\(table) is empty")
        }
        #expect(
            try sqlRows("SELECT count(*) FROM content_loading_element_removals WHERE id LIKE '%private%'", in: path)
                == ["0"], "no list key of the account is remembered")
        #expect(feed.items.isEmpty && search.items.isEmpty, "the paging models still on screen show nothing of it")
        #expect(try await lists.value(for: "all", policy: .returnCacheDontLoad) == nil)
        #expect(try await details.value(for: 1, policy: .returnCacheDontLoad) == nil)
        catalog.isOnline = false
        let next = PagingListViewModel<Void, Contact, String>(
            source: .persisted(in: contacts, key: "feed") { cursor, validators in
                try await catalog.page(cursor, validators: validators)
            })
        let opened = await next.refresh().completed()
        #expect(opened.content == nil, "the next account's feed opens with nothing of the last one")
    }
}
