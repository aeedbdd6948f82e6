// The list features shared by every model whose content is a random-access list:
// ``ListLoadingViewModel`` and ``PagingListViewModel``.

extension ContentLoadingViewModel where Output: RandomAccessCollection, Output.Index == Int {
    /// The number of items shown.
    public var itemCount: Int { content?.count ?? 0 }

    /// The item at `index`, or `nil` when `index` is out of range (never a trap).
    public func item(at index: Int) -> Output.Element? {
        guard let content, content.indices.contains(index) else { return nil }
        return content[index]
    }
}

extension ContentLoadingViewModel where Output: RandomAccessCollection, Output.Index == Int, Output.Element: Hashable {
    /// How the list changed with its last replacement (a load, an appended page, an edit):
    /// the removals and insertions that turn the previous items into the current ones, by
    /// equality. `nil` before the content was ever replaced.
    ///
    /// Computed when read, so a model whose difference nobody reads pays nothing for it.
    public var itemDifference: CollectionDifference<Output.Element>? {
        guard previousContent != nil || content != nil else { return nil }
        return (content.map(Array.init) ?? []).difference(from: previousContent.map(Array.init) ?? [])
    }
}

extension ContentLoadingViewModel
where Output: RandomAccessCollection, Output.Index == Int, Output.Element: Identifiable {
    /// How the list changed with its last replacement, by identity: items whose `id` was
    /// removed or inserted. An item edited in place (same `id`) is not a change here; reload
    /// its row separately. `nil` before the content was ever replaced.
    public var itemDifferenceByID: CollectionDifference<Output.Element>? {
        guard previousContent != nil || content != nil else { return nil }
        return (content.map(Array.init) ?? []).difference(from: previousContent.map(Array.init) ?? []) {
            $0.id == $1.id
        }
    }
}
