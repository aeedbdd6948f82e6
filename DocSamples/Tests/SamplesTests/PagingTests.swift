import ContentLoading
import ContentLoadingRepository
import Foundation
import Samples
import Testing

/// The Paging article's persisted paging sample, run: the feed opens from the stored page when
/// the server is down, and the saved element reaches it and the stored page.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct PagingTests {
    struct API: Paging.ContactPagesAPI {
        let isOnline: Bool
        func contacts(after cursor: String?) async throws -> Page<Paging.Contact, String> {
            guard isOnline else { throw URLError(.notConnectedToInternet) }
            return Page(items: [Paging.Contact(id: 1, phone: "one"), Paging.Contact(id: 2, phone: "two")], nextCursor: nil)
        }
    }

    @Test func thePersistedFeedOpensFromTheStoreAndShowsTheSave() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pages-\(UUID()).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let online = try await Paging.persisted(
            api: API(isOnline: true), cachePath: path, edited: Paging.Contact(id: 2, phone: "TWO"))
        #expect(online.items.map(\.phone) == ["one", "TWO"], "the save reaches the feed")

        let offline = try await Paging.persisted(
            api: API(isOnline: false), cachePath: path, edited: Paging.Contact(id: 1, phone: "ONE"))
        #expect(offline.items.map(\.phone) == ["ONE", "TWO"], "opened from the stored page, offline, with both saves")
        #expect(offline.state.error != nil)
    }

    /// Two pages, each with an entity tag; counts the requests for the second.
    actor PagesIfChanged: Paging.ContactPagesIfChangedAPI {
        var secondPageRequests = 0

        func contacts(after cursor: String?, ifNoneMatch entityTag: String?) async throws
            -> FetchResult<Page<Paging.Contact, String>>
        {
            let tag = cursor ?? "first"
            if cursor != nil { secondPageRequests += 1 }
            guard entityTag != tag else { return .notModified(Validators(entityTag: tag)) }
            let page =
                cursor == nil
                ? Page(items: [Paging.Contact(id: 1, phone: "one")], nextCursor: "1")
                : Page(items: [Paging.Contact(id: 2, phone: "two")], nextCursor: nil)
            return .modified(page, Validators(entityTag: tag))
        }
    }

    @Test func storedPagesYoungerThanAnHourJoinWithoutARequest() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pages-\(UUID()).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let api = PagesIfChanged()
        let first = try await Paging.revalidating(api: api, cachePath: path)
        #expect(first.items.map(\.phone) == ["one", "two"])
        let again = try await Paging.revalidating(api: api, cachePath: path)
        #expect(again.items.map(\.phone) == ["one", "two"])
        #expect(await api.secondPageRequests == 1, "the stored second page, minutes old, joins as stored")
    }
}
