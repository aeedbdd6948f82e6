import Foundation

extension KeyedRepository {
    /// A value found in a tier.
    struct Hit: Sendable {
        let value: Value
        let writtenAt: Date
        let version: UInt64
        let origin: CacheOrigin
    }

    /// What the tiers hold for `key`: memory first, then disk (a disk hit is promoted to
    /// memory). An expired value is removed and reads as a miss; so does a disk entry that
    /// cannot be read or decoded (removed too), whose error comes back with the miss.
    func lookUp(_ key: Key) async -> (hit: Hit?, failure: CacheError?) {
        let date = now()
        if let entry = memory.entry(for: key) {
            guard !isExpired(entry.writtenAt, at: date) else {
                await discard(key)
                return (nil, nil)
            }
            return (Hit(value: entry.value, writtenAt: entry.writtenAt, version: entry.version, origin: .memory), nil)
        }
        guard let disk else { return (nil, nil) }
        let stored: DiskCache.Entry?
        do {
            stored = try await disk.entry(for: key.persistentKey, now: date)
        } catch {
            return (nil, failure("read", key, error))
        }
        guard let stored else { return (nil, nil) }
        guard !isExpired(stored.writtenAt, at: date) else {
            await discard(key)
            return (nil, nil)
        }
        do {
            let value = try JSONDecoder().decode(Value.self, from: stored.data)
            memory.store(.init(value: value, writtenAt: stored.writtenAt, version: stored.version), for: key)
            return (Hit(value: value, writtenAt: stored.writtenAt, version: stored.version, origin: .disk), nil)
        } catch {
            try? await disk.remove(key.persistentKey)
            return (nil, failure("decode", key, error))
        }
    }

    /// Writes `value` through the tiers at `version` and delivers it to every reader of `key`.
    ///
    /// - Throws: ``CacheError`` when the disk write fails (also delivered to the readers);
    ///   memory and the readers have the value all the same.
    func writeThrough(_ value: Value, for key: Key, in channel: KeyChannel<Value>, version: UInt64, origin: CacheOrigin)
        async throws
    {
        let writtenAt = now()
        memory.store(.init(value: value, writtenAt: writtenAt, version: version), for: key)
        channel.readers.send(.value(value, origin: origin, writtenAt: writtenAt, version: version))
        guard let disk else { return }
        do {
            let data = try JSONEncoder().encode(value)
            try await disk.write(data, for: key.persistentKey, version: version, writtenAt: writtenAt)
        } catch {
            let failure = failure("write", key, error)
            channel.readers.send(.failure(failure))
            throw failure
        }
    }

    /// The age of a value written at `writtenAt`, at `date`.
    func age(of writtenAt: Date, at date: Date) -> Duration {
        .milliseconds(Int64((max(0, date.timeIntervalSince(writtenAt)) * 1_000).rounded()))
    }

    /// Whether a value written at `writtenAt` has expired at `date`.
    func isExpired(_ writtenAt: Date, at date: Date) -> Bool {
        age(of: writtenAt, at: date) >= ages.expireAfter
    }

    /// Removes `key` from both tiers (an expired value).
    private func discard(_ key: Key) async {
        memory.remove(key)
        try? await disk?.remove(key.persistentKey)
    }

    private func failure(_ operation: String, _ key: Key, _ error: any Error) -> CacheError {
        let reason =
            switch error {
            case let error as SQLiteError: "\(error.message) (SQLite error \(error.code))"
            case is DecodingError: "the stored value does not decode as \(Value.self) (\(error))"
            default: "\(error)"
            }
        return CacheError(operation: operation, path: disk?.path ?? "memory", key: key.persistentKey, reason: reason)
    }
}
