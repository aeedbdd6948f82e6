import ContentLoadingSupport

/// A page gave the cursor it was loaded with as the cursor to go on from: loading on would load
/// the same page again, for ever. The page load fails with it (``NextPageState/failed(_:)``, at
/// whichever end it was loading), nothing of the page is added, and the pages before it stay.
///
/// ```swift
/// // the page at cursor "b" answers Page(items: […], nextCursor: "b")
/// await model.loadNextPage().settled()
/// model.nextPageState   // failed: the page loaded at cursor b gives b as its next cursor: …
/// ```
///
/// A loop such as `while model.nextPageState == .idle { await model.loadNextPage().settled() }`
/// then ends instead of requesting that page without end. The kit compares cursors that are
/// `Equatable` (strings, numbers, your own), as Android Paging does.
public struct RepeatedCursorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The cursor, as text.
    public let cursor: String
    /// Whether it was the next cursor (after the last page); `false`: the previous one.
    public let isNextCursor: Bool

    /// Creates the error of a page loaded at `cursor` that gave it again as its next (or previous) cursor.
    public init(cursor: String, isNextCursor: Bool) {
        self.cursor = cursor
        self.isNextCursor = isNextCursor
    }

    /// "the page loaded at cursor b gives b as its next cursor: loading on would load it again".
    public var description: String {
        "the page loaded at cursor \(cursor) gives \(cursor) as its \(isNextCursor ? "next" : "previous") cursor: "
            + "loading on would load it again"
    }

    /// Throws when `page`, loaded at `cursor` to extend a list at `direction`'s end, gives
    /// `cursor` again as the cursor to go on that way. The initial page (no cursor) and
    /// cursors that are not `Equatable` pass.
    static func check<Element, Cursor>(
        _ page: Page<Element, Cursor>, loadedAt cursor: Cursor?, direction: PagingDirection
    ) throws {
        guard let cursor, let onward = direction == .next ? page.nextCursor : page.previousCursor,
            isSame(cursor, onward)
        else { return }
        throw RepeatedCursorError(cursor: "\(cursor)", isNextCursor: direction == .next)
    }
}
