/// A page gave the cursor it was loaded with as the cursor to go on from, or the cursor of one
/// of the last pages the list holds at that end: loading on would load the same pages again,
/// for ever. The page load fails with it (``NextPageState/failed(_:)``, at whichever end it was
/// loading), nothing of the page is added, and the pages before it stay.
///
/// ```swift
/// // the page at cursor "b" answers Page(items: […], nextCursor: "b")
/// await model.loadNextPage().settled()
/// model.nextPageState   // failed: the page loaded at cursor b gives b as its next cursor: …
/// ```
///
/// A loop such as `while model.nextPageState == .idle { await model.loadNextPage().settled() }`
/// then ends instead of requesting those pages without end. The kit compares cursors that are
/// `Equatable` (strings, numbers, your own), as Android Paging does, against the page's own and
/// those of the last four pages held at that end.
public struct RepeatedCursorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The cursor given again, as text.
    public let cursor: String
    /// The cursor the page was loaded with, as text, when it is another: `cursor` is then that
    /// of a page the list holds.
    public let loadedAt: String?
    /// Whether it was the next cursor (after the last page); `false`: the previous one.
    public let isNextCursor: Bool

    /// Creates the error of a page loaded at `loadedAt` (`nil`: at `cursor` itself) that gave
    /// `cursor` as its next (or previous) cursor.
    public init(cursor: String, loadedAt: String? = nil, isNextCursor: Bool) {
        self.cursor = cursor
        self.loadedAt = loadedAt == cursor ? nil : loadedAt
        self.isNextCursor = isNextCursor
    }

    /// "the page loaded at cursor b gives b as its next cursor: loading on would load it again",
    /// or, for a page loaded at c: "… gives b as its next cursor, that of a page the list holds:
    /// loading on would load the pages from there again".
    public var description: String {
        let gives = "gives \(cursor) as its \(isNextCursor ? "next" : "previous") cursor"
        guard let loadedAt else {
            return "the page loaded at cursor \(cursor) \(gives): loading on would load it again"
        }
        return "the page loaded at cursor \(loadedAt) \(gives), that of a page the list holds: "
            + "loading on would load the pages from there again"
    }
}
