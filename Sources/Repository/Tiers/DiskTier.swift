import ContentLoading
import Foundation

/// The disk tier of a ``KeyedRepository``: its values as JSON in a ``DiskCache``, under the
/// repository's namespace and the key's ``CacheKey/persistentKey`` (`[Contact]|seller-7`), so
/// repositories of different value types can share one file. Every failure is a
/// ``CacheError`` naming the file and the key.
///
/// An entry written before namespaces (under the key's JSON alone) is moved under the
/// namespace when it is first read and decodes as `Value`.
struct DiskTier<Key: CacheKey, Value: Codable & Sendable>: PersistentTier {
    let cache: DiskCache
    /// What every key of this tier starts with: by default the value type's name and a `|`,
    /// which no type name contains.
    let namespace: String

    init(cache: DiskCache, namespace: String = "\(storedTypeName(Value.self))|") {
        self.cache = cache
        self.namespace = namespace
    }

    /// The key under which `key`'s value is stored.
    func storageKey(_ key: Key) -> String { namespace + key.persistentKey }

    func entry(for key: Key, now: Date) async throws -> PersistedEntry<Value>? {
        let stored: DiskCache.Entry?
        do {
            switch try await cache.entry(for: storageKey(key), orLegacy: key.legacyPersistentKey, now: now) {
            case nil: stored = nil
            case (let entry, false)?: stored = entry
            case (let entry, true)?: stored = try await claim(entry, of: key, now: now)
            }
        } catch let corrupt as DiskCache.CorruptEntry {
            // NB: a row that does not validate is a miss from now on (unless written again
            // since); other keys are untouched.
            try? await cache.removeUnusable(storageKey(key), foundAt: corrupt.version)
            throw failure("read", key, corrupt)
        } catch {
            throw failure("read", key, error)
        }
        guard let stored else { return nil }
        do {
            let value = try JSONDecoder().decode(Value.self, from: stored.data)
            return PersistedEntry(
                value: value, writtenAt: stored.writtenAt, version: stored.version, validators: stored.validators)
        } catch {
            // NB: a row that does not decode is a miss from now on (unless written again since);
            // other keys are untouched.
            try? await cache.removeUnusable(storageKey(key), foundAt: Int(stored.version))
            throw failure("decode", key, error)
        }
    }

    func validators(for key: Key) async throws -> (validators: Validators, writtenAt: Date)? {
        do {
            return try await cache.validators(for: storageKey(key))
        } catch {
            throw failure("read", key, error)
        }
    }

    func write(
        _ value: Value, for key: Key, writtenAt: Date, validators: Validators, keepingWritesAfter started: UInt64?
    )
        async throws -> TierWrite<Value>
    {
        // NB: the server said not to store it: no copy on disk, not even an older one.
        if validators.freshness?.isNoStore == true { return TierWrite(version: try await remove(key)) }
        do {
            let data = try JSONEncoder().encode(value)
            let written = try await cache.write(
                data, for: storageKey(key), writtenAt: writtenAt, validators: validators, keepingWritesAfter: started)
            // NB: a save made after the fetch started (by another repository or process on the
            // file) wins: it is what memory and the readers get.
            guard let kept = written.kept else { return TierWrite(version: written.version) }
            if let value = try? JSONDecoder().decode(Value.self, from: kept.data) {
                return TierWrite(
                    version: written.version, kept: value, keptWhole: (kept.writtenAt, kept.validators))
            }
            // NB: a kept entry that does not decode as `Value` is no value to keep: written over.
            let rewritten = try await cache.write(
                data, for: storageKey(key), writtenAt: writtenAt, validators: validators)
            return TierWrite(version: rewritten.version)
        } catch {
            throw failure("write", key, error)
        }
    }

    func confirm(_ value: Value, for key: Key, _ confirmation: Confirmation) async throws -> TierWrite<Value> {
        try await confirming(value, for: key, confirmation) { try await confirmStored(key, confirmation) }
    }

    /// Sets the write time and validators of the stored entry of `key` when it is still the
    /// one the fetch compared; `nil` when it is not (see `DiskCache.confirm`).
    func confirmStored(_ key: Key, _ confirmation: Confirmation) async throws -> UInt64? {
        do {
            return try await cache.confirm(storageKey(key), confirmation)
        } catch {
            throw failure("write", key, error)
        }
    }

    func remove(_ key: Key) async throws -> UInt64? {
        do {
            return try await cache.remove(storageKey(key))
        } catch {
            throw failure("remove", key, error)
        }
    }

    func discardExpired(_ key: Key, foundAt version: UInt64) async throws {
        do {
            try await cache.removeUnusable(storageKey(key), foundAt: Int(exactly: version))
        } catch {
            throw failure("remove", key, error)
        }
    }

    func removeAll() async throws -> UInt64? {
        do {
            return try await cache.removeAll(prefixedBy: namespace)
        } catch {
            throw CacheError(operation: "remove", path: cache.path, key: "every entry", reason: reason(error))
        }
    }

    var latestVersion: UInt64 { cache.latestVersion }
    var fileVersion: UInt64 { cache.fileVersion }

    func startVersion(since seen: UInt64) async -> UInt64 { await cache.startVersion(since: seen) }

    /// The entry `key` had before namespaces (stored under its JSON): moved under the namespace
    /// and returned when it decodes as `Value`; `nil` when it is another repository's (it does not
    /// decode), which is left alone.
    private func claim(_ legacy: DiskCache.Entry, of key: Key, now: Date) async throws -> DiskCache.Entry? {
        guard (try? JSONDecoder().decode(Value.self, from: legacy.data)) != nil,
            try await cache.move(key.legacyPersistentKey, to: storageKey(key))
        else { return nil }
        return try await cache.entry(for: storageKey(key), now: now)
    }

    /// A ``CacheError`` naming the file and `key`.
    func failure(_ operation: String, _ key: Key, _ error: any Error) -> CacheError {
        CacheError(operation: operation, path: cache.path, key: key.persistentKey, reason: reason(error))
    }

    private func reason(_ error: any Error) -> String {
        guard error is DecodingError else { return CacheError.reason(error) }
        return "the stored value does not decode as \(Value.self) (\(error))"
    }
}
