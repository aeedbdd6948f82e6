import ContentLoading
import ContentLoadingSupport
import Foundation

/// Keyed resources with a local store that is both the single source of truth and the cache:
/// a memory tier in front of a disk tier, a single-flight fetch per key, and reads that are
/// streams of events.
///
/// A read (``events(for:policy:)``) delivers what the tiers hold, then every later write of
/// its key: a fetch's result, a ``save(_:for:)`` made anywhere in the process. The
/// ``CachePolicy`` only decides whether and when the fetch starts. Values are tagged with
/// their ``CacheOrigin`` and age; errors are events that never end the stream.
///
/// ```swift
/// let contacts = KeyedRepository<SellerID, [Contact]>(
///     memory: MemoryCache(countLimit: 50), disk: try DiskCache(.file(path: cachePath))
/// ) { sellerID in try await api.contacts(seller: sellerID) }
///
/// for await event in contacts.events(for: sellerID) { show(event) }   // .value (memory/disk/remote/local), .error
/// try await contacts.save(edited, for: sellerID)                   // every reader of sellerID gets it, no request
/// ```
///
/// - Persist, then deliver: a value reaches memory and the readers only after the disk tier
///   stored it; a failed write is an error event, and nothing changes.
/// - Writes win over stale fetches: a fetch that started before a save (or a removal) of its
///   key never overwrites it. Versions come from a counter in the disk file, never a clock.
/// - Every read that joins a fetch ends with its value or error; a fetch nobody waits for any
///   more is cancelled (see "Fetches nobody waits for" in the Caching article).
/// - The same key is fetched once at a time; different keys in parallel.
/// - Values are encoded as JSON for the disk tier; see ``DiskCache`` for its limits.
public final class KeyedRepository<Key: CacheKey, Value: Sendable>: Sendable {
    /// The memory tier.
    public let memory: MemoryCache<Key, Value>
    /// The disk tier, if any.
    public let disk: DiskCache?
    /// When values become stale and when they expire.
    public let ages: CacheAges
    /// The tier that outlives the process: the disk tier, or a ``LocalStore``.
    let tier: (any PersistentTier<Key, Value>)?
    /// Whether a fetched value equals the stored one, so that the fetch only confirms it (no
    /// write, no new value delivered); `nil` when values are not compared.
    let isUnchanged: (@Sendable (Value, Value) -> Bool)?
    /// Whether each key's last write is kept beside the tiers: a repository over a
    /// ``LocalStore`` (no memory tier) needs it to tell its own writes from others' in the store.
    let remembersLastWrite: Bool
    /// Fetches the value of a key, given the validators of the value held (none when there is
    /// none): a new value, or "not modified".
    let fetch: @Sendable (Key, Validators) async throws -> FetchResult<Value>
    /// How a failed fetch is tried again.
    let retry: RetryPolicy
    /// Called when a fetch succeeded and what it found is stored (its value or its
    /// confirmation), and every reader has it: over an ``ElementStore``, its outboxes send what
    /// waits for the server.
    let fetchStored: (@Sendable () async -> Void)?
    @usableFromInline let now: @Sendable () -> Date
    private let channels = Locked<[Key: (channel: KeyChannel<Value>, users: Int)]>([:])
    private let lastVersion = Locked(UInt64(0))
    /// What was invalidated, for every key and for single keys.
    @usableFromInline let invalidations = Locked(Invalidations<Key, Value>())

    /// Creates a repository over `tier`: the one initialiser every public one goes through.
    init(
        memory: MemoryCache<Key, Value>,
        tier: (any PersistentTier<Key, Value>)?,
        disk: DiskCache? = nil,
        ages: CacheAges,
        now: @escaping @Sendable () -> Date,
        isUnchanged: (@Sendable (Value, Value) -> Bool)? = nil,
        remembersLastWrite: Bool = false,
        retry: RetryPolicy = .never,
        fetchStored: (@Sendable () async -> Void)? = nil,
        fetch: @escaping @Sendable (Key, Validators) async throws -> FetchResult<Value>
    ) {
        self.fetchStored = fetchStored
        self.remembersLastWrite = remembersLastWrite
        self.retry = retry
        self.memory = memory
        self.tier = tier
        self.disk = disk
        self.ages = ages
        self.now = now
        self.isUnchanged = isUnchanged
        self.fetch = fetch
    }

    /// Runs `body` with the channel of `key`, made on first use. A channel stays while anyone
    /// uses it (a read, a write, a fetch) and is dropped when its last user is done, so a
    /// repository holds nothing for keys nobody is using (their values stay in the tiers).
    func withChannel<Result>(for key: Key, _ body: (KeyChannel<Value>) async throws -> Result) async rethrows
        -> Result
    {
        let channel = checkOutChannel(for: key)
        defer { checkInChannel(for: key) }
        return try await body(channel)
    }

    /// The channel of `key`, counted as used until ``checkInChannel(for:)``.
    func checkOutChannel(for key: Key) -> KeyChannel<Value> {
        channels.withLock { channels in
            if let (channel, users) = channels[key] {
                channels[key] = (channel, users + 1)
                return channel
            }
            let channel = KeyChannel<Value>()
            channels[key] = (channel, 1)
            return channel
        }
    }

    /// Ends one use of the channel of `key`; the last one drops it (unless the repository
    /// remembers each key's last write, which lives in its channel).
    func checkInChannel(for key: Key) {
        channels.withLock { channels in
            guard let (channel, users) = channels[key] else { return }
            channels[key] = users > 1 || remembersLastWrite ? (channel, users - 1) : nil
        }
    }

    /// The channel of `key` if someone is using it, without making one.
    func existingChannel(for key: Key) -> KeyChannel<Value>? {
        channels.withLock { $0[key]?.channel }
    }

    /// The channel of `key` if someone is using it (and, with `expected`, if it is that one),
    /// counted as used until ``checkInChannel(for:)``; `nil`, and no channel made, otherwise:
    /// when everyone who used a channel is done it is dropped, and a later user gets a new one.
    func checkOutExistingChannel(for key: Key, being expected: KeyChannel<Value>? = nil) -> KeyChannel<Value>? {
        channels.withLock { channels in
            guard let (channel, users) = channels[key], expected.map({ $0 === channel }) ?? true else { return nil }
            channels[key] = (channel, users + 1)
            return channel
        }
    }

    /// The keys someone is using now, with their channels.
    var liveKeys: [(key: Key, channel: KeyChannel<Value>)] {
        channels.withLock { $0.map { ($0.key, $0.value.channel) } }
    }

    /// The keys with live readers.
    var observedKeys: [Key] {
        channels.withLock { $0.filter { $0.value.channel.readers.subscriberCount > 0 }.map(\.key) }
    }

    /// How many keys have a channel now (someone reading, writing or fetching them).
    package var channelCount: Int { channels.withLock { $0.count } }

    /// A new write version for a write the persistent tier does not version (there is none,
    /// or it is a ``LocalStore``): above every version this repository has made or seen.
    /// Versions order writes; they never come from a clock.
    func nextVersion() -> UInt64 {
        lastVersion.withLock { last in
            last += 1
            return last
        }
    }

    /// Records a version the persistent tier stored a write at, or a read found.
    func noteVersion(_ version: UInt64) {
        lastVersion.withLock { $0 = max($0, version) }
    }

    /// The highest version written so far, here or in the persistent tier's file (by this
    /// process or another: what another process wrote before an invalidation is stale too, read
    /// or not): an invalidation marks every value up to it stale.
    private var latestVersion: UInt64 {
        max(lastVersion.withLock { $0 }, tier?.fileVersion ?? 0)
    }

    /// The highest version this repository and its persistent tier's connection have written
    /// or read (another process's later writes are not in it: see ``latestVersion``).
    var versionsSeen: UInt64 { max(lastVersion.withLock { $0 }, tier?.latestVersion ?? 0) }

    /// Makes every value written so far stale, on every tier: of `key`, or of every key.
    func invalidateEverythingWritten(of key: Key? = nil) {
        let version = latestVersion
        invalidations.withLock { invalidations in
            if let key { invalidations.keys[key] = version } else { invalidations.invalidateAll(upTo: version) }
        }
    }

    /// Makes every value written so far that `matches` stale, on every tier.
    func invalidateEverythingWritten(matching matches: @escaping @Sendable (Key, Value) -> Bool) {
        let version = latestVersion
        invalidations.withLock { $0.add(.init(version: version, matches: matches)) }
    }

    /// Whether `value` of `key` written at `writtenAt` with `version` and `validators` is stale
    /// at `date`.
    ///
    /// A value written after `date` (the clock went back since) is stale: its age is unknown.
    @inlinable func isStale(
        _ key: Key, value: Value, writtenAt: Date, version: UInt64, validators: Validators, at date: Date
    ) -> Bool {
        isOld(writtenAt, for: validators, at: date) || isInvalidated(key, value: value, version: version)
    }

    /// Whether an invalidation made after `value` of `key` was written at `version` marks it
    /// stale, whatever its age.
    @inlinable func isInvalidated(_ key: Key, value: Value, version: UInt64) -> Bool {
        let (invalidated, matches) = invalidations.withLock { ($0.contains(key, version: version), $0.matches) }
        return invalidated || (!matches.isEmpty && matches.matches(key, version: version, value: value))
    }

    /// Whether a value written at `writtenAt` with `validators` is stale by its age alone (or
    /// written in the future, by a clock set back).
    @inlinable func isOld(_ writtenAt: Date, for validators: Validators, at date: Date) -> Bool {
        isOld(writtenAt, past: staleAfter(validators), at: date)
    }

    /// Whether a value written at `writtenAt` is `staleAge` old or more at `date` (or written
    /// in the future, by a clock set back: its age is unknown).
    @inlinable func isOld(_ writtenAt: Date, past staleAge: Duration, at date: Date) -> Bool {
        writtenAt > date || age(of: writtenAt, at: date) >= staleAge
    }

    /// The age at which a value fetched with `validators` is stale: the response's
    /// `max-age` (or `Expires`), at most ``ages``' `expireAfter`; ``ages``' `staleAfter` when
    /// the response did not say (or the value was saved).
    @inlinable func staleAfter(_ validators: Validators) -> Duration {
        guard let maxAge = validators.freshness?.maxAge else { return ages.staleAfter }
        return min(maxAge, ages.expireAfter)
    }

    /// How many keys have live readers now.
    public var observedKeyCount: Int { observedKeys.count }
}

extension KeyedRepository where Value: Codable & Equatable {
    /// Creates a repository whose fetches are compared with the cached value: a fetch that
    /// returns an equal value writes nothing and delivers no new value; the cached value's age
    /// starts again, and a read that said a fetch was on the way gets the value once more,
    /// no longer refreshing.
    ///
    /// - Parameters:
    ///   - memory: The memory tier. Defaults to 100 entries.
    ///   - disk: The disk tier; `nil` for memory only.
    ///   - ages: When values become stale and expire. Defaults to ``CacheAges/default``.
    ///   - now: The wall clock (write times are stored on disk, so they outlive the process).
    ///     Inject a test clock to move time by hand.
    ///   - retry: How a failed fetch is tried again. Defaults to `RetryPolicy.never`.
    ///   - fetch: Fetches the value for a key. It runs once at a time per key.
    public convenience init(
        memory: MemoryCache<Key, Value> = MemoryCache(countLimit: 100),
        disk: DiskCache? = nil,
        ages: CacheAges = .default,
        now: @escaping @Sendable () -> Date = { Date() },
        retry: RetryPolicy = .never,
        fetch: @escaping @Sendable (Key) async throws -> Value
    ) {
        self.init(
            memory: memory, disk: disk, ages: ages, now: now, retry: retry,
            fetchIfChanged: { key, _ in .modified(try await fetch(key), .none) })
    }
}

extension KeyedRepository where Value: Codable {
    /// Creates a repository.
    ///
    /// - Parameters:
    ///   - memory: The memory tier. Defaults to 100 entries.
    ///   - disk: The disk tier; `nil` for memory only.
    ///   - ages: When values become stale and expire. Defaults to ``CacheAges/default``.
    ///   - now: The wall clock (write times are stored on disk, so they outlive the process).
    ///     Inject a test clock to move time by hand.
    ///   - retry: How a failed fetch is tried again. Defaults to `RetryPolicy.never`.
    ///   - fetch: Fetches the value for a key. It runs once at a time per key.
    public convenience init(
        memory: MemoryCache<Key, Value> = MemoryCache(countLimit: 100),
        disk: DiskCache? = nil,
        ages: CacheAges = .default,
        now: @escaping @Sendable () -> Date = { Date() },
        retry: RetryPolicy = .never,
        fetch: @escaping @Sendable (Key) async throws -> Value
    ) {
        self.init(
            memory: memory, disk: disk, ages: ages, now: now, retry: retry,
            fetchIfChanged: { key, _ in .modified(try await fetch(key), .none) })
    }
}
