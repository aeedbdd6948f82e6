extension PagedList {
    /// Whether the initial page this list holds is `page` as a store keeps it: the same items
    /// (told apart by `key`), in order, each once, and the same cursors on either side. A list
    /// whose page window dropped its initial page is compared with that page as it was then; one
    /// that holds no initial page otherwise (a refresh that kept the reader's place dropped it)
    /// has nothing to compare, and holds it as far as anyone can tell: `true`.
    ///
    /// A refresh whose source found the stored initial page current keeps the list shown only
    /// when it holds that page: a refresh it replaced may have stored a newer one, and not
    /// delivered it.
    func holdsInitialPage(
        _ page: Page<Element, Cursor>, key: DeduplicationKey<Element>?, isSameCursor: (Cursor, Cursor) -> Bool
    ) -> Bool {
        guard let key else { return true }
        var seen = Set<DeduplicationKey<Element>.Value>()
        let expected = page.items.map { key.value(of: $0) }.filter { seen.insert($0).inserted }
        func isSameRecord(_ record: PageRecord<Cursor>) -> Bool {
            expected.count == record.count && Self.isSame(record.nextCursor, page.nextCursor, isSameCursor)
                && Self.isSame(record.previousCursor, page.previousCursor, isSameCursor)
        }
        var start = 0
        for record in storage.pages(0..<extent.pages) {
            defer { start += record.count }
            guard case .initial = record.request else { continue }
            return isSameRecord(record)
                && zip(expected, self[start..<start + record.count]).allSatisfy { $0 == key.value(of: $1) }
        }
        // NB: a window dropped it: compared as it was then.
        if let dropped = droppedInitialPage { return isSameRecord(dropped.record) && dropped.keys == expected }
        return true
    }

    /// Keeps the initial page, when it is among the pages `dropped` (whose items start at
    /// `start`), as it is (see ``holdsInitialPage(_:key:isSameCursor:)``).
    mutating func noteInitialPage(
        among dropped: [PageRecord<Cursor>], from start: Int, key: DeduplicationKey<Element>?
    ) {
        guard let key else { return }
        var start = start
        for record in dropped {
            defer { start += record.count }
            guard case .initial = record.request else { continue }
            droppedInitialPage = (self[start..<start + record.count].map { key.value(of: $0) }, record)
        }
    }

    /// Whether two cursors, either of them perhaps none, are the same.
    private static func isSame(_ first: Cursor?, _ second: Cursor?, _ isSameCursor: (Cursor, Cursor) -> Bool) -> Bool {
        switch (first, second) {
        case (nil, nil): true
        case (let first?, let second?): isSameCursor(first, second)
        default: false
        }
    }
}
