/// Pages dropped from one end of a ``PagedList``, the nearest on top: a persistent stack, so
/// the versions of a list share it and a push costs O(1).
///
/// A page window drops whole pages; a refresh that keeps the reader's place can drop part of
/// a page, whose other items stay in the list.
final class DroppedPages<Cursor: Sendable>: Sendable {
    /// How the top page is requested again.
    let request: PageLocator<Cursor>
    /// When only the first items of the top page were dropped, how many; `nil` for the whole
    /// page. Loaded again, the page adds only those.
    let keepsFirst: Int?
    /// The pages below the top.
    let below: DroppedPages?

    init(_ record: PageRecord<Cursor>, below: DroppedPages?, keepsFirst: Int? = nil) {
        request = record.request
        self.keepsFirst = keepsFirst
        self.below = below
    }
}
