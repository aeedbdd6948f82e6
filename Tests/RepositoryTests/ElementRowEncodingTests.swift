import ContentLoading
import ContentLoadingRepository
import ContentLoadingSupport
import Foundation
import KitTestSupport
import Testing

/// An element row is the same bytes for an equal value in every run: what a `Set` in the
/// element holds is sorted, so a list fetch of an unchanged element keeps the entity tag a
/// detail fetch stored (the next mutation's `If-Match`). An element that does not encode is an
/// error naming its id and where in it the encoder stopped.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
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

    struct Reading: Identifiable, Codable, Sendable, Equatable {
        let id: Int
        var value: Double
    }

    /// A list, a page or a save with an element that does not encode (`Double.nan`: JSON has no
    /// such number) is an error naming the key, the element's id and the JSON path; nothing of
    /// it is written, and what was stored stays. (A list's error named the list alone.)
    @MainActor @Test func anElementThatDoesNotEncodeIsAnErrorNamingItsIdAndWhereInIt() async throws {
        let path = try temporaryCachePath()
        let store = ElementStore<Reading>(disk: try DiskCache(.file(path: path)))
        let served = Locked([Reading(id: 1, value: 1), Reading(id: 2, value: 2)])
        let lists = KeyedRepository<String, [Reading]>(elements: store) { _ in served.withLock { $0 } }
        try await lists.refresh("all")
        served.withLock { $0 = [Reading(id: 1, value: 10), Reading(id: 2, value: .nan)] }
        let why = "(at $.value: Unable to encode Double.nan directly in JSON.)"

        let listError = await #expect(throws: CacheError.self) { try await lists.refresh("all") }
        #expect(listError?.key == "all")
        #expect(listError?.reason == "its element 2 does not encode as Reading \(why)")

        let feed = PagingListViewModel<Void, Reading, Int>(
            source: .persisted(in: store, key: "feed") { _ in Page(items: served.withLock { $0 }, nextCursor: nil) })
        await feed.refresh().completed()
        let pageError = try #require(feed.state.error as? CacheError)
        #expect(pageError.key == "pages feed")
        #expect(pageError.reason == "its element 2 does not encode as Reading \(why)")

        let saveError = await #expect(throws: CacheError.self) { try await store.save(Reading(id: 3, value: .nan)) }
        #expect(saveError?.key == "\(String(reflecting: Reading.self)) 3")
        #expect(saveError?.reason == "the value does not encode \(why)")

        #expect(
            try await lists.value(for: "all", policy: .returnCacheDontLoad)?.value == [
                Reading(id: 1, value: 1), Reading(id: 2, value: 2),
            ])
        #expect(try sqlRows("SELECT id FROM content_loading_elements ORDER BY id", in: path) == ["1", "2"])
    }
}
