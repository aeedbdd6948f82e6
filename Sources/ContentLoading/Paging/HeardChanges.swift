/// The changes a paging model heard from its source while a load ran, in the order heard: a
/// load's result may have been read before them, so they are applied to it again when it
/// arrives. Heard while no load runs, a change is only counted.
struct HeardChanges<Element: Sendable, Cursor: Sendable> {
    typealias Change = (inout PagedList<Element, Cursor>, DeduplicationKey<Element>?) -> Bool

    /// How many changes were heard so far: a load notes it when it starts.
    private(set) var mark = 0
    /// The changes kept, each with its number.
    private var kept: [(number: Int, change: Change)] = []
    /// The marks of the refreshes still running, by token (see ``openRefresh()``).
    private var openRefreshes: [Int: Int] = [:]
    private var lastToken = 0

    /// Notes a refresh that starts: its token, and the mark it applies the changes heard since
    /// to the list shown when it keeps that list (the source's page was current). That is the
    /// oldest mark of the refreshes still running, not the current one: a refresh it replaced
    /// may still deliver a list read before a change heard since, and its own re-application
    /// (after the delivery) comes too late for the list this one reads (a save shown, then lost).
    mutating func openRefresh() -> (token: Int, since: Int) {
        lastToken += 1
        let since = min(mark, openRefreshes.values.min() ?? mark)
        openRefreshes[lastToken] = since
        return (lastToken, since)
    }

    /// Notes that the refresh `token` has delivered its list and applied the changes heard
    /// since its mark, or ended.
    mutating func closeRefresh(_ token: Int) { openRefreshes[token] = nil }

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
