import ContentLoading
import Foundation

extension KeyedRepository {
    /// Fetches `key` now and writes the result through the tiers to every reader, or joins the
    /// fetch of `key` in flight.
    ///
    /// - Returns: ``SyncOutcome/updated``, or ``SyncOutcome/notModified`` when a save since the
    ///   fetch started kept its own value.
    /// - Throws: The fetch's error (also delivered to every reader of `key`), or a
    ///   ``CacheError`` when the disk write fails.
    @discardableResult
    public func refresh(_ key: Key) async throws -> SyncOutcome {
        try await withChannel(for: key) { try await sync(key, in: $0) }
    }

    /// Whether a fetch of `key` is in flight (a screen can show it is refreshing while it keeps
    /// showing the cached value).
    public func isFetching(_ key: Key) -> Bool {
        existingChannel(for: key)?.flight.isRunning ?? false
    }

    /// Waits until the fetch of `key` in flight, if any, has ended and written its result (or
    /// failed); starts none.
    public func fetchSettled(_ key: Key) async {
        await existingChannel(for: key)?.flight.waitUntilIdle()
    }

    /// Writes `value` for `key` through the tiers: every live reader of `key` gets it at once
    /// (origin ``CacheOrigin/local``), with no request. A fetch of `key` that started before
    /// never overwrites it.
    ///
    /// - Throws: ``CacheError`` when the disk write fails; memory and the readers have the
    ///   value all the same.
    public func save(_ value: Value, for key: Key) async throws {
        try await withChannel(for: key) { channel in
            try await channel.writes.withLock { [self] in
                let version = nextVersion()
                _ = channel.claim(version, ifUnwrittenSince: nil)
                try await writeThrough(value, for: key, in: channel, version: version, origin: .local)
            }
        }
    }

    /// Removes the value of `key` from both tiers; its readers get ``CacheEvent/noValue``. A
    /// fetch that started before does not bring it back.
    ///
    /// - Throws: ``CacheError`` when the disk tier cannot remove it.
    public func remove(_ key: Key) async throws {
        try await withChannel(for: key) { channel in
            try await channel.writes.withLock { [self] in
                let version = nextVersion()
                _ = channel.claim(version, ifUnwrittenSince: nil)
                memory.remove(key)
                channel.readers.send(.removed(version: version))
                try await tier?.remove(key)
            }
        }
    }

    /// Marks the value of `key` stale, whatever its age; when `key` has live readers it is
    /// fetched again now.
    public func invalidate(_ key: Key) {
        invalidateEverythingWritten(of: key)
        if let channel = existingChannel(for: key), channel.readers.subscriberCount > 0 { revalidate(key) }
    }

    /// Marks every cached value stale, in memory and on disk; every key with live readers is
    /// fetched again now.
    public func invalidateAll() {
        invalidateEverythingWritten()
        for key in observedKeys { revalidate(key) }
    }

    /// Fetches `key`, or joins its fetch in flight, and writes the result through the tiers
    /// to every reader. With `seen`, does nothing when a write of `key` came after that version
    /// (a reader's miss that another fetch has filled since); with `skippingFresh`, does
    /// nothing while the cached value is fresh. The fetch sends the validators stored with the
    /// value, and is tried again as the retry policy says.
    ///
    /// - Returns: ``SyncOutcome/updated`` when the value was written; ``SyncOutcome/notModified``
    ///   when the fetch found it unchanged (a 304, or an equal value: its age starts again) or
    ///   a save since the fetch started kept its own value; ``SyncOutcome/skipped`` when nothing
    ///   was fetched.
    @discardableResult
    func sync(
        _ key: Key, in channel: KeyChannel<Value>, unlessWrittenAfter seen: UInt64? = nil, skippingFresh: Bool = false
    ) async throws -> SyncOutcome {
        try await channel.flight.run { [self] in
            let started = channel.writtenVersion
            if let seen, started > seen { return .skipped }
            // NB: the hit a freshness check read already holds the validators; no second read.
            var held: Validators?
            if skippingFresh, let hit = await lookUp(key).hit {
                guard isStale(key, writtenAt: hit.writtenAt, version: hit.version, at: now()) else { return .skipped }
                held = hit.validators
            }
            let result: FetchResult<Value>
            do {
                let validators: Validators
                if let held { validators = held } else { validators = await storedValidators(of: key) }
                result = try await retry.run { try await fetch(key, validators) }
            } catch {
                if !(error is CancellationError) { channel.readers.send(.failure(error)) }
                throw error
            }
            return try await channel.writes.withLock { [self] in
                let version = nextVersion()
                // NB: writes win: a save or removal since the fetch started keeps its value.
                guard channel.claim(version, ifUnwrittenSince: started) else { return .notModified }
                return try await write(result, for: key, in: channel, version: version)
            }
        }
    }

    /// Writes what a fetch of `key` found, at `version`: a new value through the tiers, or a
    /// confirmation of the cached one (a 304, or an equal value).
    private func write(_ result: FetchResult<Value>, for key: Key, in channel: KeyChannel<Value>, version: UInt64)
        async throws -> SyncOutcome
    {
        switch result {
        case .notModified(let validators):
            guard let current = await lookUp(key).hit else {
                // NB: nothing is cached, so nothing holds the validators: the next fetch is full.
                let error = UnexpectedNotModified(key: key.persistentKey)
                channel.readers.send(.failure(error))
                throw error
            }
            try await confirm(current, for: key, in: channel, version: version, validators: validators)
            return .notModified
        case .modified(let value, let validators):
            if let isUnchanged, let current = await lookUp(key).hit, isUnchanged(current.value, value) {
                try await confirm(current, for: key, in: channel, version: version, validators: validators)
                return .notModified
            }
            try await writeThrough(
                value, for: key, in: channel, version: version, origin: .remote, validators: validators)
            return .updated
        }
    }

    /// The validators stored with the value of `key`: from memory, else from the persistent
    /// tier without reading the value; none when nothing is stored, it cannot be read or it
    /// has expired (a 304 could not bring it back).
    private func storedValidators(of key: Key) async -> Validators {
        let date = now()
        if let entry = memory.entry(for: key) { return isExpired(entry.writtenAt, at: date) ? .none : entry.validators }
        guard let stored = try? await tier?.validators(for: key), !isExpired(stored.writtenAt, at: date) else {
            return .none
        }
        return stored.validators
    }

    /// Fetches `key` in the background; its result or error reaches the readers.
    func revalidate(_ key: Key) {
        _ = fetchTask(key)
    }

    /// A task that fetches `key` (see ``sync(_:in:unlessWrittenAfter:skippingFresh:)``); it
    /// uses the key's channel from now until it ends.
    @discardableResult
    func fetchTask(_ key: Key, unlessWrittenAfter seen: UInt64? = nil) -> Task<Void, Never> {
        let channel = checkOutChannel(for: key)
        return Task {
            defer { checkInChannel(for: key) }
            _ = try? await sync(key, in: channel, unlessWrittenAfter: seen)
        }
    }
}
