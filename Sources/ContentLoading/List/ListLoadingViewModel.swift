/// A ``ContentLoadingViewModel`` whose content is a list: `empty` means no items.
///
/// Subclass it like its superclass, overriding ``ContentLoadingViewModel/load(_:)`` to return
/// the items. It adds safe item access and the difference between the previous and the new
/// list, for animating table and collection updates:
///
/// ```swift
/// final class InboxModel: ListLoadingViewModel<Void, Message> {
///     nonisolated override func load(_ input: Void) async throws -> [Message] { try await api.inbox() }
/// }
///
/// model.item(at: 99)             // nil when out of range, never a trap
/// model.itemDifferenceByID       // insertions and removals since the previous list
/// ```
open class ListLoadingViewModel<Input: Sendable, Element: Sendable>: ContentLoadingViewModel<Input, [Element]> {
    /// The items shown: the content, or no items before the first load and after an empty one.
    public var items: [Element] { content ?? [] }
}
