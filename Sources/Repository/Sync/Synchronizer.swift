import ContentLoadingSupport
import Foundation

/// Fetches remote data and writes it into a ``LocalStore``: the only way data reaches the store
/// from the network. It reports errors but never hands data to a screen.
///
/// ```swift
/// let synchronizer = Synchronizer(store: store, freshness: .ifOlderThan(.seconds(300))) {
///     try await api.sellerContacts()
/// }
/// let outcome = try await synchronizer.sync()   // .updated, .notModified or .skipped
/// ```
///
/// Concurrent ``sync()`` calls are single-flight: a call made while a sync runs joins it and
/// gets its outcome (or its error); only one fetch happens.
public final class Synchronizer<Element: Sendable & Identifiable & Equatable>: Sendable where Element.ID: Sendable {
    /// The store written to.
    public let store: any LocalStore<Element>
    /// Whether a sync fetches at all.
    public let freshness: FreshnessPolicy
    private let fetch: @Sendable () async throws -> [Element]
    private let now: @Sendable () -> Date
    private let flight = SingleFlight<SyncOutcome>()

    /// Creates a synchronizer.
    ///
    /// - Parameters:
    ///   - store: The store to write into.
    ///   - freshness: Whether a sync fetches at all. Defaults to ``FreshnessPolicy/always``.
    ///   - now: The wall clock; the last sync time is stored with the data, so it outlives the
    ///     process. Inject a fixed clock in tests.
    ///   - fetch: Fetches the whole remote collection.
    public init(
        store: any LocalStore<Element>,
        freshness: FreshnessPolicy = .always,
        now: @escaping @Sendable () -> Date = { Date() },
        fetch: @escaping @Sendable () async throws -> [Element]
    ) {
        self.store = store
        self.freshness = freshness
        self.now = now
        self.fetch = fetch
    }

    /// Syncs, or joins the sync in flight.
    ///
    /// - Returns: What the sync did.
    /// - Throws: The fetch's or the store's error; then nothing was written and the stored data
    ///   is untouched.
    @discardableResult
    public func sync() async throws -> SyncOutcome {
        try await flight.run { [self] in try await performSync() }
    }

    /// Whether a sync is in flight.
    public var isSyncing: Bool { flight.isRunning }

    /// How many ``sync()`` calls are waiting for the sync in flight (they will all get its
    /// outcome).
    public var waitingCallers: Int { flight.waitingCallers }

    private func performSync() async throws -> SyncOutcome {
        if case .ifOlderThan(let maximumAge) = freshness, let last = try await store.lastSyncDate() {
            let age = now().timeIntervalSince(last)
            if age >= 0, age < maximumAge.timeInterval { return .skipped }
        }
        let remote = try await fetch()
        let syncedAt = now()
        guard try await store.fetchAll() != remote else {
            try await store.setLastSyncDate(syncedAt)
            return .notModified
        }
        try await store.replaceAll(with: remote, syncedAt: syncedAt)
        return .updated
    }
}

extension Duration {
    /// The duration in seconds.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
