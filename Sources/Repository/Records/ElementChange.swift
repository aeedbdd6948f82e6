import Foundation

/// A save or removal of one element, as every repository over an ``ElementStore`` hears it.
struct ElementChange<Element: Identifiable & Sendable>: Sendable where Element.ID: Sendable {
    let id: Element.ID
    /// The saved element; `nil` when it was removed.
    let element: Element?
    /// The file's version of the write.
    let version: UInt64
    let writtenAt: Date

    /// Applies the change to `list`: the saved element in place of every element with its
    /// id, or those elements removed (order kept).
    ///
    /// - Returns: Whether `list` held the id.
    func apply(to list: inout [Element]) -> Bool {
        guard let element else {
            let count = list.count
            list.removeAll { $0.id == id }
            return list.count != count
        }
        var replaced = false
        for position in list.indices where list[position].id == id {
            list[position] = element
            replaced = true
        }
        return replaced
    }
}

/// A persistent tier whose lists' elements live in an ``ElementStore``: an element is saved
/// through the store.
protocol ElementStoring<Key, Element>: Sendable {
    associatedtype Key: Hashable & Sendable
    associatedtype Element
    /// Saves `element` through the store; returns the keys of this tier's lists that held it.
    func save(_ element: Element) async throws -> [Key]
}
