import ContentLoading
import Foundation

/// The disk tier of a ``KeyedRepository``: its values as JSON in a ``DiskCache``, under the
/// key's ``CacheKey/persistentKey``. Every failure is a ``CacheError`` naming the file and the
/// key.
struct DiskTier<Key: CacheKey, Value: Codable & Sendable>: PersistentTier {
    let cache: DiskCache

    func entry(for key: Key, now: Date) async throws -> PersistedEntry<Value>? {
        let stored: DiskCache.Entry?
        do {
            stored = try await cache.entry(for: key.persistentKey, now: now)
        } catch let corrupt as DiskCache.CorruptEntry {
            // NB: a row that does not validate is a miss from now on; other keys are untouched.
            _ = try? await cache.remove(key.persistentKey)
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
            // NB: a row that does not decode is a miss from now on; other keys are untouched.
            _ = try? await cache.remove(key.persistentKey)
            throw failure("decode", key, error)
        }
    }

    func validators(for key: Key) async throws -> (validators: Validators, writtenAt: Date)? {
        do {
            return try await cache.validators(for: key.persistentKey)
        } catch {
            throw failure("read", key, error)
        }
    }

    func write(_ value: Value, for key: Key, writtenAt: Date, validators: Validators) async throws -> UInt64? {
        do {
            let data = try JSONEncoder().encode(value)
            return try await cache.write(data, for: key.persistentKey, writtenAt: writtenAt, validators: validators)
        } catch {
            throw failure("write", key, error)
        }
    }

    func confirm(_ value: Value, for key: Key, expected: UInt64, writtenAt: Date, validators: Validators)
        async throws -> UInt64?
    {
        let confirmed: UInt64?
        do {
            confirmed = try await cache.confirm(
                key.persistentKey, expected: expected, writtenAt: writtenAt, validators: validators)
        } catch {
            throw failure("write", key, error)
        }
        if let confirmed { return confirmed }
        return try await write(value, for: key, writtenAt: writtenAt, validators: validators)
    }

    func remove(_ key: Key) async throws -> UInt64? {
        do {
            return try await cache.remove(key.persistentKey)
        } catch {
            throw failure("remove", key, error)
        }
    }

    func removeAll() async throws -> UInt64? {
        do {
            return try await cache.removeAll()
        } catch {
            throw CacheError(operation: "remove", path: cache.path, key: "every entry", reason: reason(error))
        }
    }

    var latestVersion: UInt64 { cache.latestVersion }

    private func failure(_ operation: String, _ key: Key, _ error: any Error) -> CacheError {
        CacheError(operation: operation, path: cache.path, key: key.persistentKey, reason: reason(error))
    }

    private func reason(_ error: any Error) -> String {
        switch error {
        case let error as SQLiteError: "\(error.message) (SQLite error \(error.code))"
        case is DecodingError: "the stored value does not decode as \(Value.self) (\(error))"
        default: "\(error)"
        }
    }
}
