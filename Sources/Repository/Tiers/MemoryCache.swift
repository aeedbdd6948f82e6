import ContentLoading
import ContentLoadingSupport
import Foundation

/// The memory tier: the most recently used values, bounded by count and by a cost the caller
/// supplies (bytes, say), with their write times. Thread-safe; every operation is O(1).
///
/// ```swift
/// let memory = MemoryCache<String, [Contact]>(countLimit: 100, costLimit: 4 << 20) { $0.count * 256 }
/// ```
public final class MemoryCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// A cached value and when it was written (on the repository's clock).
    public struct Entry: Sendable {
        /// The value.
        public internal(set) var value: Value
        /// When it was written.
        public internal(set) var writtenAt: Date
        /// The repository's version of the write (a later write has a larger one).
        @usableFromInline var version: UInt64
        /// The validators the fetch of the value got (none for a save).
        public internal(set) var validators: Validators = .none
        /// The version of the last write of the whole value (an edit of some of its parts, an
        /// element of a list, raises ``version`` only).
        @usableFromInline var wholeVersion: UInt64

        /// An entry written at `version`; a write of the whole value unless `wholeVersion` says
        /// since when it is whole (a confirmation of a value read before).
        init(
            value: Value, writtenAt: Date, version: UInt64, validators: Validators = .none, wholeVersion: UInt64? = nil
        ) {
            (self.value, self.writtenAt, self.version, self.validators) = (value, writtenAt, version, validators)
            self.wholeVersion = wholeVersion ?? version
        }
    }

    /// The most entries kept (0: none).
    public let countLimit: Int
    /// The most total cost kept (an entry costlier than this alone is not kept at all; 0:
    /// none).
    public let costLimit: Int
    private let cost: @Sendable (Value) -> Int
    /// ``costLimit``, at most half of `Int.max` (no limit anyone reaches): the total cost, at
    /// most this limit after each eviction, plus one entry's (clamped to one more than it)
    /// always fits in an `Int`.
    private let evictionCostLimit: Int
    @usableFromInline let index = Locked(LRUIndex<Key, Entry>())

    /// Creates a memory tier.
    ///
    /// - Parameters:
    ///   - countLimit: The most entries kept; the least recently used go first. 0 (or less)
    ///     keeps none, as a `costLimit` of 0 (or less) does: every read goes to the next tier.
    ///   - costLimit: The most total cost kept. Defaults to no limit.
    ///   - cost: The cost of a value. Defaults to 1 for each. A cost below 0 counts as 0; one
    ///     past `costLimit` (`Int.max` for "too big") is not kept.
    public init(countLimit: Int, costLimit: Int = .max, cost: @escaping @Sendable (Value) -> Int = { _ in 1 }) {
        // NB: not a precondition: an app's 0 (`NSCache`'s "no limit") stopped the process.
        self.countLimit = max(countLimit, 0)
        self.costLimit = max(costLimit, 0)
        self.cost = cost
        evictionCostLimit = min(self.costLimit, Int.max / 2)
    }

    /// The entry for `key`, made the most recently used.
    @inlinable public func entry(for key: Key) -> Entry? {
        index.withLock { $0.value(for: key) }
    }

    /// Stores `entry` for `key`, unless a later write is already there, then evicts the least
    /// recently used entries over the limits.
    ///
    /// `isCurrent` runs under the tier's lock, before anything changes: `false` stores nothing
    /// (a value read from the persistent tier before a write of the key that memory may no
    /// longer hold: a removal, or a save evicted since).
    func store(_ entry: Entry, for key: Key, if isCurrent: () -> Bool = { true }) {
        // NB: the app's cost function runs before the lock is taken.
        let entryCost = clampedCost(of: entry.value)
        index.withLock { index in
            guard isCurrent() else { return }
            if let current = index.value(for: key), current.version > entry.version { return }
            guard evictionCostLimit > 0, entryCost <= evictionCostLimit else {
                index.remove(key)
                return
            }
            index.insert(entry, for: key, cost: entryCost)
            index.evict(countLimit: countLimit, costLimit: evictionCostLimit)
        }
    }

    /// Edits the value for `key` in place as a write at `version`, written at `writtenAt`,
    /// unless a later write is there; returns the edited value, or `nil` when the tier does not
    /// hold `key` or `edit` leaves it (returns `false`).
    ///
    /// While the tier holds the only reference to the value, nothing is copied: an edit of one
    /// element of a long list costs what the edit costs. While a reader holds it too, value
    /// semantics copy it, here, under the tier's lock.
    ///
    /// `writtenAt` `nil` keeps the entry's write time and validators: an edit of a part that is
    /// stored on its own (an element of a list of records) leaves the list as old as it was.
    /// Such an edit is made even when a later write is there (parts are ordered by their own
    /// versions, which the caller checks: an edit of another element may have come first), and
    /// the entry keeps the later version. With `droppingValidators`, such an edit drops the
    /// validators all the same (a removal of an element: the list is no longer the server's).
    func edit(
        _ key: Key, version: UInt64, writtenAt: Date?, droppingValidators: Bool = false,
        _ edit: (inout Value) -> Bool
    ) -> Value? {
        let edited: Value?? = index.withLock { index in
            index.modify(key) { entry -> Value? in
                guard entry.version < version || writtenAt == nil, edit(&entry.value) else { return nil }
                entry.version = max(entry.version, version)
                if let writtenAt { entry.writtenAt = writtenAt }
                // NB: an edited value is no longer the server's: the next fetch is a full one.
                if writtenAt != nil || droppingValidators { entry.validators = .none }
                return entry.value
            }
        }
        guard let edited = edited ?? nil else { return nil }
        // NB: the app's cost function runs outside the lock, as in `store`.
        let editedCost = clampedCost(of: edited)
        index.withLock { index in
            guard let entry = index.peek(key), entry.version == version || writtenAt == nil else { return }
            index.setCost(editedCost, for: key)
            index.evict(countLimit: countLimit, costLimit: evictionCostLimit)
        }
        return edited
    }

    /// The cost of `value`, from 0 to one past the eviction limit: an app's cost (`Int.max`
    /// for "too big", say) overflowed the total at the next store, and a negative one could
    /// leave a total no eviction brings under the limit.
    private func clampedCost(of value: Value) -> Int {
        min(max(cost(value), 0), evictionCostLimit + 1)
    }

    /// Removes the entry for `key`.
    public func remove(_ key: Key) {
        index.withLock { _ = $0.remove(key) }
    }

    /// Removes the entry for `key` while it is the write at `version` (a later one stays).
    func remove(_ key: Key, ifAt version: UInt64) {
        index.withLock { index in
            guard index.peek(key)?.version == version else { return }
            index.remove(key)
        }
    }

    /// Runs `body` under the tier's lock when it holds no entry for `key` (a promotion, which
    /// stores under the lock, then comes before or after it, never between); returns whether
    /// it ran.
    @discardableResult
    func withoutEntry(for key: Key, _ body: () -> Void) -> Bool {
        index.withLock { index in
            guard index.peek(key) == nil else { return false }
            body()
            return true
        }
    }

    /// Removes every entry.
    public func removeAll() {
        index.withLock { $0.removeAll() }
    }

    /// How many entries it holds.
    public var count: Int { index.withLock { $0.count } }

    /// The total cost of its entries.
    public var totalCost: Int { index.withLock { $0.totalCost } }

    /// The keys, most recently used first.
    public var keysByRecency: [Key] { index.withLock { $0.keysNewestFirst } }
}
