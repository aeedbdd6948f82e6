import ContentLoading
import ContentLoadingRepository
import Foundation
import Testing

/// An element row is the same bytes for an equal value in every run: what a `Set` in the
/// element holds is sorted, so a list fetch of an unchanged element keeps the entity tag a
/// detail fetch stored (the next mutation's `If-Match`).
@Suite(.timeLimit(.minutes(1)))
struct ElementRowEncodingTests {
    struct Tagged: Identifiable, Codable, Sendable, Equatable {
        let id: Int
        var labels: Set<String>
    }

    @Test func aListFetchOfAnEqualElementWithASetInAnotherOrderKeepsItsEntityTag() async throws {
        let path = try temporaryCachePath()
        let store = ElementStore<Tagged>(disk: try DiskCache(.file(path: path)))
        let labels: Set<String> = ["a", "b", "c", "d", "e"]
        let details = KeyedRepository<Int, Tagged>(elements: store) { id, _ in
            .modified(
                Tagged(id: id, labels: labels), Validators(entityTag: #""v1""#, lastModified: nil, freshness: nil))
        }
        try await details.refresh(1)
        // NB: the same set, iterated in another order: as a relaunch (another hash seed) gives it.
        let regrown = CacheKeyTests.tags(labels, grownFrom: 1_000)
        let lists = KeyedRepository<String, [Tagged]>(elements: store) { _ in [Tagged(id: 1, labels: regrown)] }
        try await lists.refresh("all")

        #expect(
            try sqlRows("SELECT value FROM content_loading_elements", in: path) == [
                #"{"id":1,"labels":["a","b","c","d","e"]}"#
            ])
        #expect(try sqlRows("SELECT entity_tag FROM content_loading_elements", in: path) == [#""v1""#], "kept")
        #expect(try await store.element(id: 1)?.labels == labels)
    }
}
