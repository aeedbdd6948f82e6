/// The changes a paging model heard from its source while a load ran, in the order heard: a
/// load's result may have been read before them, so they are applied to it again when it
/// arrives. Heard while no load runs, a change is only counted.
struct HeardChanges<Element: Sendable, Cursor: Sendable> {
    typealias Change = (inout PagedList<Element, Cursor>, DeduplicationKey<Element>?) -> Bool

    /// How many changes were heard so far: a load notes it when it starts.
    private(set) var mark = 0
    /// The changes kept, each with its number.
    private var kept: [(number: Int, change: Change)] = []

    /// Counts a change, keeping `change` (`nil` when no load runs, which lets go of the kept ones).
    mutating func hear(_ change: Change?) {
        mark += 1
        guard let change else {
            kept.removeAll()
            return
        }
        kept.append((mark, change))
    }

    /// Applies the changes heard after `mark` to `list`, in order.
    ///
    /// - Returns: Whether `list` changed.
    func apply(since mark: Int, to list: inout PagedList<Element, Cursor>, key: DeduplicationKey<Element>?) -> Bool {
        var changed = false
        for (number, change) in kept where number > mark {
            if change(&list, key) { changed = true }
        }
        return changed
    }
}
