import ContentLoading
import Foundation

/// A ``LocalStore`` in memory, for tests and previews: the same observable behaviour as
/// ``SQLiteStore`` without a file.
///
/// ```swift
/// let store = InMemoryStore<SellerContacts>(sortedBy: { $0.order < $1.order })
/// ```
public actor InMemoryStore<Element: Sendable & Identifiable & Equatable>: LocalStore where Element.ID: Sendable {
    /// The elements by id, each with when it was last written: elements the order puts side
    /// by side come in the order they were written, as a table's rows do, and not in the order
    /// of the process's hash seed (which changes from run to run, and with every write).
    private var elements: [Element.ID: (element: Element, written: Int)] = [:]
    private var writes = 0
    private var syncDate: Date?
    private let areInIncreasingOrder: @Sendable (Element, Element) -> Bool
    private let observers = StoreObservers<Element>()

    /// Creates an empty store that returns its elements in the order `areInIncreasingOrder` gives
    /// (elements it puts side by side in the order they were written).
    public init(sortedBy areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool) {
        self.areInIncreasingOrder = areInIncreasingOrder
    }

    /// Creates a store holding `elements`, returned in the order `areInIncreasingOrder` gives.
    ///
    /// - Throws: `DuplicateIDError` when `elements` repeat an id.
    public init(
        sortedBy areInIncreasingOrder: @escaping @Sendable (Element, Element) -> Bool, elements: [Element]
    ) throws {
        try DuplicateIDError.check(elements)
        self.areInIncreasingOrder = areInIncreasingOrder
        self.elements = Dictionary(uniqueKeysWithValues: elements.enumerated().map { ($1.id, ($1, $0)) })
        writes = elements.count
    }

    /// A new stream of all elements: the current ones first, then every committed change (see ``LocalStore/observe()``).
    public func observe() -> AsyncStream<[Element]> { observers.subscribe(current: fetchAll()) }

    /// All elements, in the store's order.
    public func fetchAll() -> [Element] {
        elements.values.sorted { first, second in
            if areInIncreasingOrder(first.element, second.element) { return true }
            if areInIncreasingOrder(second.element, first.element) { return false }
            return first.written < second.written
        }.map(\.element)
    }

    /// Inserts the elements, replacing any with the same id, in one transaction.
    public func write(_ newElements: [Element]) throws {
        try DuplicateIDError.check(newElements)
        for element in newElements { store(element) }
        observers.publish(fetchAll())
    }

    /// Makes the elements the whole content and records the sync time, in one transaction.
    public func replaceAll(with newElements: [Element], syncedAt: Date?) throws {
        try DuplicateIDError.check(newElements)
        elements = [:]
        for element in newElements { store(element) }
        if let syncedAt { syncDate = syncedAt }
        observers.publish(fetchAll())
    }

    /// Deletes the elements with these ids, in one transaction.
    public func delete(ids: [Element.ID]) {
        for id in ids { elements[id] = nil }
        observers.publish(fetchAll())
    }

    /// Keeps `element`, written after every element before it.
    private func store(_ element: Element) {
        writes += 1
        elements[element.id] = (element, writes)
    }

    /// When the last successful sync happened, or `nil` when never.
    public func lastSyncDate() -> Date? { syncDate }

    /// Records the time of the last successful sync.
    public func setLastSyncDate(_ date: Date) { syncDate = date }
}
