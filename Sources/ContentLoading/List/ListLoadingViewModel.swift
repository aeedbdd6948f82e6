/// A ``ContentLoadingViewModel`` whose content is a list: `empty` means no items.
///
/// Make it like its superclass, with a load function that returns the items (or a subclass
/// that overrides ``ContentLoadingViewModel/load(_:)``). It adds safe item access and the
/// difference between the previous and the new list, for animating table and collection updates:
///
/// ```swift
/// let model = ListLoadingViewModel<Void, Message> { _ in try await api.inbox() }
///
/// let row = model.item(at: 99)             // nil when out of range, never a trap
/// let changes = model.itemDifferenceByID    // insertions and removals since the previous list
/// ```
open class ListLoadingViewModel<Input: Sendable, Element: Sendable>: ContentLoadingViewModel<Input, [Element]> {
    /// The items shown: the content, or no items before the first load and after an empty one.
    public var items: [Element] { content ?? [] }
}
