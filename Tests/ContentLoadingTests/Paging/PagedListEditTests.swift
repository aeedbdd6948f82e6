import Testing

@testable import ContentLoading

/// Items replaced in place: the versions of a list share one storage, so a replacement costs
/// what it replaces, and every version still reads the items it had.
@Suite struct PagedListEditTests {
    private let origin = PagingOrigin(input: "q")
    private let key = DeduplicationKey<Item>.id

    @Test func aReplacementEditsTheSharedStorageAndOlderVersionsKeepTheirItems() {
        let older = PagedList(first: page(0..<4, next: 4), origin: origin, key: key)
        var newer = older
        let changed = newer.replace([Item(id: 2, title: "two")], key: key)
        #expect(changed)
        #expect(newer.storage === older.storage, "replaced in place, not copied")
        #expect(newer.map(\.title) == ["", "", "two", ""])
        #expect(older.map(\.title) == ["", "", "", ""])
        newer.append(page(4..<6, next: nil), window: nil, key: key)
        #expect(newer.storage === older.storage, "the newest version still appends in place")
        #expect(newer.map(\.id) == Array(0..<6) && newer[2].title == "two")
        var branch = older
        branch.append(page(2..<8, next: nil), window: nil, key: key)
        #expect(branch.storage !== older.storage)
        #expect(branch.map(\.id) == Array(0..<8) && branch.allSatisfy { $0.title.isEmpty }, "a copy keeps what it read")
    }

    /// An edited version whose storage another version has moved on from appends to a copy:
    /// the copy starts with no edit of its own. (The append looked for the edited version's
    /// extent in the copy, did not find it, and crashed on a forced unwrap.)
    @Test func anEditedVersionAppendsToACopyWhenAnotherVersionMovedTheStorageOn() {
        var edited = PagedList(first: page(0..<4, next: 4), origin: origin, key: key)
        let replaced = edited.replace([Item(id: 2, title: "two")], key: key)
        #expect(replaced)
        var other = edited
        other.append(page(4..<6, next: 6), window: nil, key: key)
        edited.append(page(4..<8, next: nil), window: nil, key: key)
        #expect(edited.storage !== other.storage)
        #expect(edited.map(\.id) == Array(0..<8))
        #expect(edited[2].title == "two", "the edit is kept in the copy")
        #expect(other.map(\.id) == Array(0..<6))
    }

    @Test func aReplacementInAnOlderVersionCopiesAndLeavesTheNewerAlone() {
        let older = PagedList(first: page(0..<4, next: 4), origin: origin, key: key)
        var newer = older
        _ = newer.replace([Item(id: 1, title: "newer")], key: key)
        var branch = older
        _ = branch.replace([Item(id: 3, title: "branch")], key: key)
        #expect(branch.storage !== older.storage)
        #expect(branch.map(\.title) == ["", "", "", "branch"])
        #expect(newer.map(\.title) == ["", "newer", "", ""])
        #expect(older.map(\.title) == ["", "", "", ""])
    }

    @Test func replacementsFoldIntoACopyOnceTheyOutnumberTheItems() {
        var list = PagedList(first: page(0..<4, next: nil), origin: origin, key: key)
        let storage = list.storage
        var versions: [PagedList<Item, Int>] = []
        for edit in 1...1_025 {
            _ = list.replace([Item(id: edit % 4, title: "\(edit)")], key: key)
            versions.append(list)
        }
        #expect(versions[1_023].storage === storage, "1,024 replacements stay in place")
        #expect(list.storage !== storage, "the next one copies")
        #expect(list.map(\.title) == ["1024", "1025", "1022", "1023"])
        for (offset, version) in versions.enumerated() where offset % 97 == 0 || offset >= 1_022 {
            let edit = offset + 1
            #expect(version[edit % 4].title == "\(edit)", "version \(edit) reads its own edit")
        }
    }

    @Test func anIDIsFoundThroughTheKeysAfterThePositionsMoved() {
        var list = PagedList(
            first: Page(items: makeItems(5..<10), previousCursor: 0, nextCursor: 10), origin: origin, key: key)
        list.prepend(Page(items: makeItems(0..<5), previousCursor: nil, nextCursor: 5), window: nil, key: key)
        #expect(list.firstIndex(ofID: 7, key: key) == 7)
        list.remove(at: 2, key: key)
        #expect(list.firstIndex(ofID: 7, key: key) == 6)
        #expect(list.firstIndex(ofID: 2, key: key) == nil)
        let changed = list.replace([Item(id: 9, title: "nine"), Item(id: 42, title: "not held")], key: key)
        #expect(changed)
        #expect(list[8] == Item(id: 9, title: "nine") && list.count == 9)
        let shorter = PagedList(first: page(0..<3, next: 3), origin: origin, key: key)
        var longer = shorter
        longer.append(page(3..<6, next: nil), window: nil, key: key)
        #expect(shorter.firstIndex(ofID: 4, key: key) == nil, "a position past the version's items is not its")
    }

    @Test func itemsRemovedAcrossPagesKeepThePageCountsAWindowDropsBy() {
        var list = PagedList(first: page(0..<4, next: 4), origin: origin, key: key)
        list.append(page(4..<8, next: 8), window: 3, key: key)
        list.append(page(8..<12, next: 12), window: 3, key: key)
        let removed = list.removeAll(where: { item, _ in item.id.isMultiple(of: 2) }, key: key)
        #expect(removed)
        let removedNone = list.removeAll(where: { item, _ in item.id > 100 }, key: key)
        #expect(!removedNone, "nothing to remove")
        #expect(list.map(\.id) == [1, 3, 5, 7, 9, 11])
        #expect(list.firstIndex(ofID: 9, key: key) == 4)
        list.append(page(12..<16, next: nil), window: 3, key: key)
        #expect(list.map(\.id) == [5, 7, 9, 11, 12, 13, 14, 15], "the first page dropped: its two items left")
    }

    @Test func aKeyThatIsNotTheIDFollowsTheItemsReplacedInPlace() {
        let byTitle = DeduplicationKey<Item> { $0.title }
        var list = PagedList(
            first: Page(items: [Item(id: 0, title: "a"), Item(id: 1, title: "b")], nextCursor: 2), origin: origin,
            key: byTitle)
        _ = list.replace([Item(id: 1, title: "c")], key: byTitle)
        #expect(list.firstIndex(ofID: 1, key: byTitle) == 1, "found by a search")
        list.append(
            Page(items: [Item(id: 2, title: "b"), Item(id: 3, title: "c")], nextCursor: nil), window: nil, key: byTitle)
        #expect(list.map(\.id) == [0, 1, 2], "\"b\" is free again; \"c\" is held")
    }
}
