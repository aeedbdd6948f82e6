/// Pages a window dropped from one end of a ``PagedList``, the nearest on top: a persistent
/// stack, so the versions of a list share it and a push costs O(1).
final class DroppedPages<Cursor: Sendable>: Sendable {
    /// How the top page is requested again.
    let request: PageLocator<Cursor>
    /// How many items the top page and every page below it held.
    let items: Int
    /// The pages below the top.
    let below: DroppedPages?

    init(_ record: PageRecord<Cursor>, below: DroppedPages?) {
        request = record.request
        items = record.count + (below?.items ?? 0)
        self.below = below
    }
}
