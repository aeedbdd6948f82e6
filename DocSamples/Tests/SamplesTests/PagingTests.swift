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
}
