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
/// It is the keyed mechanism's case of one key: a ``KeyedRepository`` whose persistent tier is
/// the store (its whole collection is the key's value, its last sync time the value's write
/// time) and whose ages come from the ``FreshnessPolicy``. So a sync is the key's single-flight
/// fetch: concurrent ``sync()`` calls, and the syncs that ``Repository`` reads start, make one
/// fetch and share its outcome (or its error); a fetched collection equal to the stored one
/// writes nothing; and while a ``Repository`` read is open, a write made to the store directly
/// reaches its readers and is not overwritten by a fetch that started before it.
public final class Synchronizer<Element: Sendable & Identifiable & Equatable>: Sendable where Element.ID: Sendable {
    /// The store written to.
    public let store: any LocalStore<Element>
    /// Whether a sync fetches at all.
    public let freshness: FreshnessPolicy
    /// The keyed mechanism the store is the persistent tier of.
    let keyed: KeyedRepository<WholeCollection, [Element]>

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
        // NB: no memory tier (a cost limit of 0 keeps nothing): the store is read every time,
        // so a write made to it directly is never hidden behind an older copy.
        keyed = KeyedRepository(
            memory: MemoryCache(countLimit: 1, costLimit: 0), tier: StoreTier(store: store), ages: freshness.ages,
            now: now, isUnchanged: { $0 == $1 }, remembersLastWrite: true,
            fetch: { _, _ in .modified(try await fetch(), .none) })
    }

    /// Syncs, or joins the sync in flight.
    ///
    /// - Returns: What the sync did.
    /// - Throws: The fetch's or the store's error; then nothing was written and the stored data
    ///   is untouched.
    @discardableResult
    public func sync() async throws -> SyncOutcome {
        try await keyed.withChannel(for: WholeCollection()) { channel in
            try await keyed.sync(WholeCollection(), in: channel, skippingFresh: true)
        }
    }

    /// Returns when no sync is in flight (at once when none is): for a test, or a caller that
    /// must not join a sync that already delivered its data. A sync that failed has told its
    /// readers by then; one that comes while a sync is ending waits for the sync queued after
    /// it, if any.
    public func syncSettled() async {
        await keyed.fetchSettled(WholeCollection())
    }

    /// Whether a sync is in flight.
    public var isSyncing: Bool { channel?.flight.isRunning ?? false }

    /// How many ``sync()`` calls are waiting for the sync in flight (they will all get its
    /// outcome).
    public var waitingCallers: Int { channel?.flight.waitingCallers ?? 0 }

    private var channel: KeyChannel<[Element]>? { keyed.existingChannel(for: WholeCollection()) }
}
