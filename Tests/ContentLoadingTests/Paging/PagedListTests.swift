import Testing

@testable import ContentLoading

@Suite struct PagedListTests {
    private let origin = PagingOrigin(input: "q")

    @Test func olderVersionsKeepTheirItemsWhileANewerOneAppends() {
        let first = PagedList(first: page(0..<3, next: 3), origin: origin, key: nil)
        var second = first
        second.append(page(3..<6, next: 6), window: nil, key: nil)
        var third = second
        third.append(page(6..<9, next: nil), window: nil, key: nil)
        #expect(first.map(\.id) == [0, 1, 2])
        #expect(second.map(\.id) == Array(0..<6))
        #expect(third.map(\.id) == Array(0..<9))
        #expect(third.pagesLoaded == 3)
        #expect(!third.hasMore)
    }

    @Test func appendingToAnOlderVersionBranchesInsteadOfOverwriting() {
        let first = PagedList(first: page(0..<3, next: 3), origin: origin, key: nil)
        var newer = first
        newer.append(page(3..<6, next: 6), window: nil, key: nil)
        var branch = first
        branch.append(page(100..<102, next: nil), window: nil, key: nil)
        #expect(newer.map(\.id) == Array(0..<6))
        #expect(branch.map(\.id) == [0, 1, 2, 100, 101])
    }

    @Test func editsCopyAndLeaveOtherVersionsAlone() {
        let key = DeduplicationKey<Item> { $0.id }
        let original = PagedList(first: page(0..<4, next: 4), origin: origin, key: key)
        var edited = original
        edited.remove(at: 1, key: key)
        edited.replace(at: 0, with: Item(id: 0, title: "zero"), key: key)
        #expect(original.map(\.id) == [0, 1, 2, 3])
        #expect(original[0].title == "")
        #expect(edited.map(\.id) == [0, 2, 3])
        edited.append(page(1..<6, next: nil), window: nil, key: key)
        #expect(edited.map(\.id) == [0, 2, 3, 1, 4, 5], "the removed id may come back; the others are de-duplicated")
    }

    @Test func prependingCopiesSkipsKnownKeysAndLeavesOlderVersionsAlone() {
        let key = DeduplicationKey<Item> { $0.id }
        let middle = PagedList(
            first: Page(items: makeItems(5..<10), previousCursor: 0, nextCursor: 10), origin: origin, key: key)
        var earlier = middle
        let dropped = earlier.prepend(
            Page(items: makeItems(0..<6), previousCursor: nil, nextCursor: 5), window: nil, key: key)
        #expect(!dropped)
        #expect(earlier.map(\.id) == Array(0..<10), "item 5, already in the list, is skipped")
        #expect(middle.map(\.id) == Array(5..<10))
        #expect(!earlier.hasPrevious && earlier.hasMore)
        #expect(earlier.pagesLoaded == 2)
    }

    @Test func pagesDroppedAtEitherEndAreRememberedWithTheirRequests() {
        var list = PagedList(first: page(0..<3, next: 3), origin: origin, key: nil)
        _ = list.append(page(3..<6, next: 6), window: 2, key: nil)
        let droppedFirst = list.append(page(6..<9, next: 9), window: 2, key: nil)
        #expect(droppedFirst, "the first page goes")
        #expect(list.map(\.id) == Array(3..<9))
        #expect(list.itemsBefore == 3)
        #expect(list.hasPrevious && list.previousCursor == nil, "the initial page: no cursor, but there is one")
        let droppedLast = list.prepend(page(0..<3, next: 3), window: 2, key: nil)
        #expect(droppedLast, "the last page goes")
        #expect(list.map(\.id) == Array(0..<6))
        #expect(list.itemsBefore == 0 && !list.hasPrevious)
        #expect(list.nextCursor == 6, "the dropped page comes back by its own cursor")
    }
}
