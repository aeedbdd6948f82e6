import Testing

@testable import ContentLoading

/// A refresh answered "not modified" keeps the list shown only when it holds the stored
/// initial page: the same items, in order, each once, and the same cursors.
@Suite struct PagedListInitialPageTests {
    private let origin = PagingOrigin(input: "q")
    private let key = DeduplicationKey<Item>.id
    private let isSameCursor: (Int, Int) -> Bool = { $0 == $1 }

    private func list(window: Int? = nil) -> PagedList<Item, Int> {
        var list = PagedList(first: page(0..<3, next: 3), origin: origin, key: key)
        list.append(page(3..<6, next: 6), window: window, key: key)
        return list
    }

    @Test func theSameItemsAndCursorsAreTheInitialPage() {
        #expect(list().holdsInitialPage(page(0..<3, next: 3), key: key, isSameCursor: isSameCursor))
        let repeated = Page(items: makeItems(0..<3) + makeItems(2..<3), nextCursor: 3)
        #expect(
            list().holdsInitialPage(repeated, key: key, isSameCursor: isSameCursor),
            "an id the store holds twice shows once")
    }

    @Test func otherItemsOrCursorsAreNot() {
        let list = list()
        #expect(!list.holdsInitialPage(page(0..<2, next: 2), key: key, isSameCursor: isSameCursor), "fewer items")
        #expect(
            !list.holdsInitialPage(page(0..<3, next: 4), key: key, isSameCursor: isSameCursor), "another next cursor")
        #expect(!list.holdsInitialPage(page(0..<3, next: nil), key: key, isSameCursor: isSameCursor), "no next cursor")
        let reordered = Page(items: makeItems(0..<3).reversed(), nextCursor: 3)
        #expect(!list.holdsInitialPage(reordered, key: key, isSameCursor: isSameCursor), "another order")
        let withPrevious = Page(items: makeItems(0..<3), previousCursor: -3, nextCursor: 3)
        #expect(!list.holdsInitialPage(withPrevious, key: key, isSameCursor: isSameCursor), "a previous cursor")
    }

    @Test func anItemRemovedFromTheListShownIsNotTheStoredPage() {
        var list = list()
        list.remove(at: 1, key: key)
        #expect(!list.holdsInitialPage(page(0..<3, next: 3), key: key, isSameCursor: isSameCursor))
        #expect(
            list.holdsInitialPage(
                Page(items: [Item(id: 0), Item(id: 2)], nextCursor: 3), key: key, isSameCursor: isSameCursor))
    }

    @Test func anInitialPageAWindowDroppedIsComparedAsItWasThen() {
        let list = list(window: 1)
        #expect(list.map(\.id) == [3, 4, 5])
        #expect(list.holdsInitialPage(page(0..<3, next: 3), key: key, isSameCursor: isSameCursor))
        #expect(!list.holdsInitialPage(page(0..<3, next: 2), key: key, isSameCursor: isSameCursor), "another cursor")
        let other = Page(items: [Item(id: 0), Item(id: 9), Item(id: 2)], nextCursor: 3)
        #expect(!list.holdsInitialPage(other, key: key, isSameCursor: isSameCursor), "other items")

        var opened = PagedList(first: page(3..<6, next: 6), origin: origin, key: key)
        opened.prepend(Page(items: makeItems(0..<3), nextCursor: 3), requested: .cursor(-3), window: 1, key: key)
        #expect(opened.map(\.id) == [0, 1, 2], "the initial page, dropped from the end")
        #expect(opened.holdsInitialPage(page(3..<6, next: 6), key: key, isSameCursor: isSameCursor))
        #expect(!opened.holdsInitialPage(page(3..<5, next: 5), key: key, isSameCursor: isSameCursor))
    }

    @Test func aListWithNoKeysHasNothingToCompare() {
        let list = PagedList(first: page(0..<3, next: 3), origin: origin, key: nil)
        #expect(
            list.holdsInitialPage(page(10..<13, next: 13), key: nil, isSameCursor: isSameCursor), "no keys to compare")
    }
}
