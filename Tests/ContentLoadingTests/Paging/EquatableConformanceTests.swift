import Testing

@testable import ContentLoading

/// `PagedList` and `ContentEvent` compare by what they hold, so tests and views can use `==`.
@Suite struct EquatableConformanceTests {
    private let origin = PagingOrigin(input: "q")

    @Test func pagedListsWithTheSameItemsCursorAndPagesAreEqual() {
        var twoPages = PagedList(first: page(0..<3, next: 3), origin: origin, key: nil)
        twoPages.append(page(3..<5, next: 5), window: nil, key: nil)
        var sameTwoPages = PagedList(first: page(0..<3, next: 3), origin: PagingOrigin(input: "other"), key: nil)
        sameTwoPages.append(page(3..<5, next: 5), window: nil, key: nil)
        #expect(twoPages == sameTwoPages, "storage and origin do not count")

        var otherItem = twoPages
        otherItem.replace(at: 4, with: Item(id: 99), key: nil)
        #expect(twoPages != otherItem)
        var lastPage = PagedList(first: page(0..<3, next: 3), origin: origin, key: nil)
        lastPage.append(page(3..<5, next: nil), window: nil, key: nil)
        #expect(twoPages != lastPage, "the next cursor counts")
        let onePage = PagedList(first: page(0..<5, next: 5), origin: origin, key: nil)
        #expect(twoPages != onePage, "pagesLoaded counts")
        let middle = PagedList(
            first: Page(items: makeItems(0..<5), previousCursor: -5, nextCursor: 5), origin: origin, key: nil)
        #expect(middle != onePage, "the previous cursor counts")
        var windowed = PagedList(first: page(0..<2, next: 2), origin: origin, key: nil)
        windowed.append(page(2..<5, next: 5), window: 1, key: nil)
        var threeItems = PagedList(first: page(2..<5, next: 5), origin: origin, key: nil)
        threeItems.append(page(5..<5, next: 5), window: nil, key: nil)
        #expect(windowed.map(\.id) == threeItems.map(\.id) && windowed.pagesLoaded == threeItems.pagesLoaded)
        #expect(windowed != threeItems, "pages dropped before count")
    }

    @Test func contentEventsCompareValuesAndErrorsAsStatesDo() {
        struct Offline: Error, Equatable { let attempt: Int }
        struct Opaque: Error { let reason: String }
        #expect(ContentEvent.value([1, 2]) == .value([1, 2]))
        #expect(ContentEvent.value([1, 2]) != .value([1]))
        #expect(ContentEvent<[Int]>.error(Offline(attempt: 1)) == .error(Offline(attempt: 1)))
        #expect(ContentEvent<[Int]>.error(Offline(attempt: 1)) != .error(Offline(attempt: 2)))
        #expect(ContentEvent<[Int]>.error(Opaque(reason: "a")) == .error(Opaque(reason: "a")), "by description")
        #expect(ContentEvent<[Int]>.error(Opaque(reason: "a")) != .error(Opaque(reason: "b")))
        #expect(ContentEvent<[Int]>.error(Offline(attempt: 1)) != .value([]))
    }
}
