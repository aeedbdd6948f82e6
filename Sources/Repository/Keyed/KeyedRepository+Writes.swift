import ContentLoading
import Foundation

extension KeyedRepository {
    /// Fetches `key` now and writes the result through the tiers to every reader, or joins the
    /// fetch of `key` in flight; a fetch in flight that already has its answer (it is storing
    /// or delivering it), or whose request started before a save, removal or invalidation of
    /// `key` made before this call, is waited for, then `key` is fetched again.
    ///
    /// - Returns: ``SyncOutcome/updated``, or ``SyncOutcome/notModified`` when a save since the
    ///   fetch started kept its own value.
    /// - Throws: The fetch's error (also delivered to every reader of `key`), a ``CacheError``
    ///   when the disk write fails (then nothing is delivered), or `CancellationError` when
    ///   the calling task is cancelled (the fetch goes on while others wait for it).
    @discardableResult
    public func refresh(_ key: Key) async throws -> SyncOutcome {
        try await withChannel(for: key) { try await sync(key, in: $0) }
    }

    /// Whether a fetch of `key` is in flight (a screen can show it is refreshing while it keeps
    /// showing the cached value).
    public func isFetching(_ key: Key) -> Bool {
        existingChannel(for: key)?.flight.isRunning ?? false
    }

    /// How many callers wait for the fetch of `key` in flight (``refresh(_:)`` calls and reads
    /// that started or joined it); 0 when none runs.
    public func waitingCallers(for key: Key) -> Int {
        existingChannel(for: key)?.flight.waitingCallers ?? 0
    }

    /// Waits until the fetch of `key` in flight, if any, has ended and stored its result (or
    /// failed, and its readers have the error); starts none. A wait that comes while a fetch
    /// is ending waits for the fetch that callers queued meanwhile start, if any. While this
    /// waits, the fetch is not cancelled (see "Fetches nobody waits for" in the Caching
    /// article).
    public func fetchSettled(_ key: Key) async {
        // NB: the wait uses the channel, so a fetch it keeps alive keeps its channel too.
        guard let channel = checkOutExistingChannel(for: key) else { return }
        defer { checkInChannel(for: key) }
        await channel.flight.waitUntilIdle()
    }

    /// Writes `value` for `key` through the tiers: the persistent tier first, then memory and
    /// every live reader of `key` (origin ``CacheOrigin/local``), with no request. A fetch of
    /// `key` that started before never overwrites it.
    ///
    /// - Throws: ``CacheError`` when the disk write fails: then nothing changed, and the
    ///   readers get the error as an event.
    public func save(_ value: Value, for key: Key) async throws {
        try await sharingWrite {
            let delivery = try await withChannel(for: key) { channel in
                try await channel.writes.withLock { [self] in
                    try await reportingFailure(in: channel) {
                        try await writeThrough(value, for: key, in: channel, origin: .local)
                    }
                }
            }
            await shareWrite(delivery, of: key)
        }
    }

    /// Runs `write`, which writes through the persistent tier and shares the write
    /// (``shareWrite(_:of:)``), as the tier's write in flight (see `PersistentTier.sharing`).
    func sharingWrite<Result>(_ write: () async throws -> Result) async rethrows -> Result {
        guard let tier else { return try await write() }
        return try await tier.sharing(write)
    }

    /// Hands a write of `key` to the persistent tier once its locks are released (see
    /// `PersistentTier.didWrite`).
    func shareWrite(_ delivery: KeyChannel<Value>.Delivery?, of key: Key) async {
        guard let tier, case .value(let value, _, let writtenAt, let version, _)? = delivery else { return }
        await tier.didWrite(value, for: key, version: version, writtenAt: writtenAt)
    }

    /// Removes the value of `key` from both tiers (the persistent one first); its readers get
    /// ``CacheEvent/noValue``. A fetch that started before does not bring it back.
    ///
    /// - Throws: ``CacheError`` when the disk tier cannot remove it: then nothing changed.
    public func remove(_ key: Key) async throws {
        try await sharingWrite {
            let version = try await withChannel(for: key) { channel in
                try await channel.writes.withLock { [self] in
                    try await reportingFailure(in: channel) {
                        let version = try await stored { try await $0.remove(key) }
                        memory.remove(key)
                        _ = publish(.removed(version: version), in: channel)
                        return version
                    }
                }
            }
            await tier?.didRemove(key, version: version)
        }
    }

    /// Removes every value, from the persistent tier first, then from memory; every live reader
    /// gets ``CacheEvent/noValue``. A fetch that started before brings nothing back; a save made
    /// meanwhile is kept.
    ///
    /// - Important: Repositories over one ``DiskCache`` file whose values are of one type share
    ///   their entries (a namespace named after the type): this removes theirs too. Those of
    ///   repositories of other value types stay.
    /// - Throws: ``CacheError`` when the disk tier cannot be emptied: then nothing changed.
    public func removeAll() async throws {
        try await sharingWrite {
            let live = liveKeys
            let version: UInt64
            do {
                version = try await stored { try await $0.removeAll() }
            } catch {
                for (_, channel) in live { channel.readers.send(.failure(error, flight: nil)) }
                throw error
            }
            memory.removeAll()
            for (key, channel) in live {
                // NB: under the key's write lock, so a write under way lands before the removal
                // reaches memory and readers; one that came after it is kept.
                await channel.writes.withLock { [self] in
                    guard !channel.wasWritten(after: version) else { return }
                    memory.remove(key)
                    publish(.removed(version: version), in: channel)
                }
            }
            await tier?.didRemoveAll(version: version)
        }
    }

    /// Runs `write`; its error reaches the readers of the channel as an event, then the caller.
    @discardableResult
    func reportingFailure<Result>(in channel: KeyChannel<Value>, _ write: () async throws -> Result) async throws
        -> Result
    {
        do {
            return try await write()
        } catch {
            channel.readers.send(.failure(error, flight: nil))
            throw error
        }
    }

    /// Marks the value of `key` stale, whatever its age. Every live reader of `key` whose
    /// policy fetches gets it fetched again: now, or after the fetch in flight when that one
    /// started before (one more fetch, however many invalidations arrive meanwhile). The value
    /// such a fetch brings stays stale (its request started before the call), so the key's next
    /// read fetches again too.
    public func invalidate(_ key: Key) {
        invalidateEverythingWritten(of: key)
        existingChannel(for: key)?.invalidate()
    }

    /// Marks every cached value stale, in memory and on disk; every key with live readers
    /// whose policy fetches is fetched again, as ``invalidate(_:)`` says.
    public func invalidateAll() {
        invalidateEverythingWritten()
        for (_, channel) in liveKeys { channel.invalidate() }
    }
}
