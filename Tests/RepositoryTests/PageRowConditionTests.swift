import ContentLoading
import Foundation
import KitTestSupport
import Testing

@testable import ContentLoadingRepository

/// A stored page's read marks it incomplete (it was served without some of its elements), or
/// removes it (its row does not read), only while its row is still the one the read found: a
/// page written again since, whole, is kept as written, its validators too.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct PageRowConditionTests {
    let disk: DiskCache
    init() throws { disk = try DiskCache(.inMemory) }

    func writeInitialPage(_ ids: [String], next: String) async throws {
        let elements = ids.map { DiskCache.EncodedElement(id: $0, data: Data(#"{"id": \#($0)}"#.utf8)) }
        _ = try await disk.writePage(
            try JSONEncoder().encode(ids), previousCursor: nil, nextCursor: next, elements: elements, type: "T",
            of: "list", at: .initial, fetchedAt: Date(), validators: Validators(entityTag: "\"\(next)\""),
            keepingWritesAfter: nil)
    }

    func storedPage() async throws -> DiskCache.StoredPage? {
        try await disk.storedPage(of: "list", request: nil, type: "T")
    }

    @Test func aPageWrittenAgainAfterItsReadIsNotMarkedIncomplete() async throws {
        try await writeInitialPage(["1"], next: "a")
        let read = try #require(try await storedPage())
        try await writeInitialPage(["1", "2"], next: "b")

        try await disk.markIncomplete(pageOf: "list", request: nil, foundAt: read.version)

        let page = try #require(try await storedPage())
        #expect(!page.isIncomplete)
        #expect(page.validators.entityTag == "\"b\"")
        try await disk.markIncomplete(pageOf: "list", request: nil, foundAt: page.version)
        #expect(try await storedPage()?.isIncomplete == true, "the row a read found is marked")
    }

    @Test func aPageWrittenAgainAfterItsReadIsNotRemovedAsUnreadable() async throws {
        try await writeInitialPage(["1"], next: "a")
        let read = try #require(try await storedPage())
        try await writeInitialPage(["1", "2"], next: "b")

        try await disk.removeUnreadablePage(of: "list", request: nil, foundAt: read.version)

        let page = try #require(try await storedPage())
        #expect(page.nextCursor == "b")
        try await disk.removeUnreadablePage(of: "list", request: nil, foundAt: page.version)
        #expect(try await storedPage() == nil, "the row a read found is removed")
    }
}
