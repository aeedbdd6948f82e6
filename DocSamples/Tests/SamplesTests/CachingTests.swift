import ContentLoadingRepository
import Foundation
import Samples
import Testing

/// The Caching article's records sample, run: the saved element reaches the list a search
/// stored, and the detail opens from the element's row without a request.
@Suite(.timeLimit(.minutes(1)))
struct CachingTests {
    final class API: Caching.RecordsAPI {
        func search(_ query: String) async throws -> [Caching.Contact] {
            [Caching.Contact(id: 1, phone: "one"), Caching.Contact(id: 2, phone: "two")]
        }
        func contact(_ id: Caching.Contact.ID) async throws -> Caching.Contact {
            Issue.record("the detail was fetched")
            return Caching.Contact(id: id, phone: "fetched")
        }
    }

    @Test func theRecordsSampleShowsTheEditEverywhereWithoutARequest() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("records-\(UUID()).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let search = KeyedRepository<String, [Caching.Contact]>(
            elements: ElementStore(disk: try DiskCache(.file(path: path)))
        ) { query in try await API().search(query) }
        try await search.refresh("a")

        let (opened, listed) = try await Caching.records(
            api: API(), cachePath: path, edited: Caching.Contact(id: 2, phone: "TWO"))
        #expect(opened?.value == Caching.Contact(id: 2, phone: "TWO"))
        #expect(opened?.origin == .disk)
        #expect(listed?.map(\.phone) == ["one", "TWO"], "the stored list shows the edit")
    }
}
