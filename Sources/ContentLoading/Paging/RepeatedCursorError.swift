/// A page gave the cursor it was loaded with as the cursor to go on from, or the cursor of a
/// page loaded before it at that end: loading on would load the same pages again, for ever.
/// The page load fails with it (``NextPageState/failed(_:)``, at whichever end it was
/// loading), nothing of the page is added, and the pages before it stay.
///
/// ```swift
/// // the page at cursor "b" answers Page(items: […], nextCursor: "b")
/// await model.loadNextPage().settled()
/// let state = model.nextPageState   // failed: the page loaded at cursor b gives b as its next cursor: …
/// ```
///
/// A loop such as `while model.nextPageState == .idle { await model.loadNextPage().settled() }`
/// then ends instead of requesting those pages without end. The kit compares cursors that are
/// `Equatable` (strings, numbers, your own), as Android Paging does: with the page's own and
/// those of the last four pages held at that end, which finds a cycle through them at once, and
/// with one cursor of the chain of pages loaded at that end (Brent's cycle finding), which finds
/// a longer cycle by the time `2 · max(μ, λ) + λ` pages were loaded, for a cycle of `λ` pages
/// that begins after `μ`. A page loaded again after the page window dropped it starts a new
/// chain: going back and forth through a list is never taken for a cycle.
public struct RepeatedCursorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The cursor given again, as text.
    public let cursor: String
    /// The cursor the page was loaded with, as text, when it is another: `cursor` is then that
    /// of a page loaded before it at that end.
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
    /// or, for a page loaded at c: "… gives b as its next cursor, that of a page loaded before
    /// it: loading on would load the pages from there again".
    public var description: String {
        let gives = "gives \(cursor) as its \(isNextCursor ? "next" : "previous") cursor"
        guard let loadedAt else {
            return "the page loaded at cursor \(cursor) \(gives): loading on would load it again"
        }
        return "the page loaded at cursor \(loadedAt) \(gives), that of a page loaded before it: "
            + "loading on would load the pages from there again"
    }
}
