import Foundation

/// The local store a screen reads from: the single source of truth.
///
/// A store holds one collection of elements, returns them in its own order, and tells
/// observers about every committed change. Writes are transactions: all or nothing.
///
/// ```swift
/// let store = try SQLiteStore<SellerContacts>(.file(path: "contacts.sqlite"))
/// for await contacts in try await store.observe() { show(contacts) }   // now, then every change
/// ```
///
/// ``SQLiteStore`` keeps the elements in SQLite; ``InMemoryStore`` keeps them in memory for tests
/// and previews, with the same observable behaviour.
public protocol LocalStore<Element>: Sendable {
    /// What the store holds.
    associatedtype Element: Sendable & Identifiable & Equatable where Element.ID: Sendable

    /// A new stream of all elements: the current ones at once, then the new list after every
    /// committed write that changes it. It finishes when the store is released.
    ///
    /// - Throws: When the current elements cannot be read.
    func observe() async throws -> AsyncStream<[Element]>

    /// All elements, in the store's order.
    func fetchAll() async throws -> [Element]

    /// Inserts `elements`, replacing any with the same id, in one transaction.
    ///
    /// - Throws: `DuplicateIDError` when `elements` repeat an id: nothing is written.
    func write(_ elements: [Element]) async throws

    /// Makes `elements` the whole content, and records `syncedAt` as the last sync time, in one
    /// transaction: on failure nothing changes.
    ///
    /// - Throws: `DuplicateIDError` when `elements` repeat an id: nothing is written.
    func replaceAll(with elements: [Element], syncedAt: Date?) async throws

    /// Deletes the elements with these ids, in one transaction.
    func delete(ids: [Element.ID]) async throws

    /// When the last successful sync happened, as recorded by ``replaceAll(with:syncedAt:)`` or
    /// ``setLastSyncDate(_:)``; `nil` when never. Persisted with the data.
    func lastSyncDate() async throws -> Date?

    /// Records `date` as the time of the last successful sync.
    func setLastSyncDate(_ date: Date) async throws
}
