import Testing

@testable import ContentLoading

/// Each page a store serves carries the store's version it holds every change up to; a change
/// heard later that a page holds already is not applied to that page's items.
@Suite struct PagedListStoredAtTests {
    private let origin = PagingOrigin(input: "q")
    private let key = DeduplicationKey<Item>.id

    private func page(_ range: Range<Int>, next: Int?, storedAt: UInt64?) -> Page<Item, Int> {
        var page = Page(items: makeItems(range), nextCursor: next)
        page.storedAt = storedAt
        return page
    }

    /// Pages stored at 10, 30 and 20, of 4, 3 and 5 items.
    private func list() -> PagedList<Item, Int> {
        var list = PagedList(first: page(0..<4, next: 4, storedAt: 10), origin: origin, key: key)
        list.append(page(4..<7, next: 7, storedAt: 30), window: nil, key: key)
        list.append(page(7..<12, next: nil, storedAt: 20), window: nil, key: key)
        return list
    }

    @Test func aChangeIsHeldByThePagesStoredAtItsVersionOrAfter() {
        let list = list()
        let pageOfItem = [0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 2]
        let storedAt: [UInt64] = [10, 30, 20]
        for version: UInt64 in [5, 10, 15, 20, 25, 30, 35] {
            for index in 0..<12 {
                #expect(
                    list.holdsChange(at: version, itemAt: index) == (version <= storedAt[pageOfItem[index]]),
                    "version \(version), item \(index)")
            }
        }
        #expect(!list.holdsChange(at: nil, itemAt: 0), "a change with no version")
        #expect(!list.mayHoldChange(at: 31), "newer than every page: nothing to look up")
        #expect(list.mayHoldChange(at: 30))
    }

    @Test func aPageWithNoVersionHoldsNoChange() {
        var list = PagedList(first: page(0..<2, next: 2, storedAt: nil), origin: origin, key: key)
        list.append(page(2..<4, next: nil, storedAt: 8), window: nil, key: key)
        #expect(!list.holdsChange(at: 1, itemAt: 0))
        #expect(list.holdsChange(at: 1, itemAt: 3))
    }

    @Test func aRemovalOfEveryItemLeavesThePagesThatHoldIt() {
        var list = list()
        let removed = list.removeAll(where: { _, storedAt in !(25 <= (storedAt ?? 0)) }, key: key)
        #expect(removed)
        #expect(list.map(\.id) == [4, 5, 6], "the page stored at 30 holds the removal at 25")
        list.append(page(12..<14, next: nil, storedAt: 40), window: nil, key: key)
        #expect(list.map(\.id) == [4, 5, 6, 12, 13], "the page counts kept in step")
        #expect(list.holdsChange(at: 35, itemAt: 3) && !list.holdsChange(at: 35, itemAt: 2))
    }
}
