import ContentLoading
import Foundation

/// The one key of a repository whose persistent tier is a ``LocalStore``: the store's whole
/// collection.
struct WholeCollection: CacheKey {
    var persistentKey: String { "all" }
}

/// A ``LocalStore`` as the persistent tier of a ``KeyedRepository`` of one key: the single
/// source of truth's collection is the key's value, its last sync time the value's write time.
///
/// The store keeps no versions: what it holds is the first version of the key in this
/// process, and every write through the repository comes after it. Errors are the store's own
/// (``SQLiteError`` names the file).
struct StoreTier<Element: Sendable & Identifiable & Equatable>: PersistentTier where Element.ID: Sendable {
    let store: any LocalStore<Element>

    /// The collection, and its last sync time (never synced: the distant past, so it is stale).
    func entry(for key: WholeCollection, now: Date) async throws -> PersistedEntry<[Element]>? {
        let elements = try await store.fetchAll()
        let syncedAt = try await store.lastSyncDate() ?? .distantPast
        return PersistedEntry(value: elements, writtenAt: syncedAt, version: 1)
    }

    /// A store keeps no validators: every sync of the single source of truth is a full fetch.
    func validators(for key: WholeCollection) async throws -> (validators: Validators, writtenAt: Date)? { nil }

    /// Makes `value` the whole collection and `writtenAt` the last sync time, in one transaction.
    func write(
        _ value: [Element], for key: WholeCollection, writtenAt: Date, validators: Validators,
        keepingWritesAfter started: UInt64?
    ) async throws -> TierWrite<[Element]> {
        try await store.replaceAll(with: value, syncedAt: writtenAt)
        return TierWrite(version: nil)
    }

    /// Records `writtenAt` as the last sync time.
    func confirm(_ value: [Element], for key: WholeCollection, _ confirmation: Confirmation) async throws
        -> TierWrite<[Element]>
    {
        try await store.setLastSyncDate(confirmation.writtenAt)
        return TierWrite(version: nil)
    }

    /// Empties the collection.
    func remove(_ key: WholeCollection) async throws -> UInt64? {
        try await store.replaceAll(with: [], syncedAt: nil)
        return nil
    }

    /// Nothing: the single source of truth never expires (``FreshnessPolicy/ages``); a sync
    /// replaces it.
    func discardExpired(_ key: WholeCollection, foundAt version: UInt64) async throws {}

    /// Empties the collection.
    func removeAll() async throws -> UInt64? {
        try await remove(WholeCollection())
    }

    /// A store keeps no versions.
    var latestVersion: UInt64 { 0 }
    var fileVersion: UInt64 { 0 }
}
