import ContentLoading
import ContentLoadingRepository
import Foundation

/// The seller's contacts with the local database as the single source of truth.
///
/// The screen reads only from the store (a SQLite table sorted by `order`); a sync fetches
/// through ``SellerContactsAPIManager`` and writes into it.
///
/// ```swift
/// let repository = try SellerContactsRepository.sqlite(
///     path: "contacts.sqlite", apiManager: SellerContactsAPIManager(urlStore: LiveSellerContactsURLStore(baseURL: base)))
/// let loader = SellerContactsStoreLoader(repository: repository)
/// loader.refresh()   // stored contacts at once, updated ones after the sync, or an error with them kept
/// ```
public enum SellerContactsRepository {
    /// A repository over the SQLite database at `path` (created when missing).
    ///
    /// - Throws: `SQLiteError` naming the path when the database cannot be opened.
    public static func sqlite(
        path: String,
        apiManager: SellerContactsAPIManager,
        freshness: FreshnessPolicy = .always,
        now: @escaping @Sendable () -> Date = { Date() },
        retry: RetryPolicy = .never
    ) throws -> Repository<SellerContacts> {
        let store = try SQLiteStore<SellerContacts>(.file(path: path))
        return repository(store: store, apiManager: apiManager, freshness: freshness, now: now, retry: retry)
    }

    /// A repository over any store (an `InMemoryStore` in tests and previews).
    public static func repository(
        store: any LocalStore<SellerContacts>,
        apiManager: SellerContactsAPIManager,
        freshness: FreshnessPolicy = .always,
        now: @escaping @Sendable () -> Date = { Date() },
        retry: RetryPolicy = .never
    ) -> Repository<SellerContacts> {
        Repository(
            synchronizer: Synchronizer(store: store, freshness: freshness, now: now) {
                try await retry.run { try await apiManager.sellerContacts().sortedByOrder() }
            })
    }
}
