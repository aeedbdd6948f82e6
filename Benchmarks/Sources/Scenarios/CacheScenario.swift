import ContentLoadingRepository
import Foundation
import SellerContacts

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLiteRaw
#endif

/// Scenarios C1–C5 of the keyed cache, each with the baseline it is measured against.
public enum CacheScenario {
    /// C1, the kit: `count` reads of a key held in the memory tier.
    public static func memoryHits(_ repository: KeyedRepository<String, [SellerContacts]>, count: Int) -> Int {
        var found = 0
        for _ in 0..<count where repository.cachedValue(for: "seller") != nil { found += 1 }
        return found
    }

    /// C1, the baseline: `count` lookups in a dictionary under a lock.
    public static func dictionaryHits(_ dictionary: LockedValue<[String: [SellerContacts]]>, count: Int) -> Int {
        var found = 0
        for _ in 0..<count where dictionary.withLock({ $0["seller"] }) != nil { found += 1 }
        return found
    }

    /// A fresh cache file path.
    public static func freshCachePath() throws -> String {
        try SQLiteScenario.freshPath().replacingOccurrences(of: "contacts.sqlite", with: "cache.sqlite")
    }

    /// A repository over a fresh disk cache at `path`, holding `contacts` under "seller".
    public static func diskRepository(at path: String, holding contacts: [SellerContacts]) async throws
        -> KeyedRepository<String, [SellerContacts]>
    {
        let repository = KeyedRepository<String, [SellerContacts]>(disk: try DiskCache(.file(path: path))) { _ in
            contacts
        }
        try await repository.save(contacts, for: "seller")
        return repository
    }

    /// C2, the kit: `count` reads with a cold memory tier (each a disk hit: read, decode, promote).
    public static func diskHits(_ repository: KeyedRepository<String, [SellerContacts]>, count: Int) async throws {
        for _ in 0..<count {
            repository.memory.removeAll()
            guard try await repository.value(for: "seller", policy: .returnCacheDontLoad)?.origin == .disk else {
                fatalError("C2: not a disk hit")
            }
        }
    }

    /// C2, the baseline: `count` raw sqlite3 SELECTs of the same blob, each decoded.
    public static func rawSelects(path: String, count: Int) throws {
        var db: OpaquePointer?
        guard sqlite3_open(path, &db) == SQLITE_OK, let db else { fatalError("open failed") }
        defer { sqlite3_close(db) }
        var statement: OpaquePointer?
        // NB: the values live in a table of their own (migration 10); a query the schema does not
        // have stops here, not as a missing row.
        guard
            sqlite3_prepare_v2(db, "SELECT value FROM content_loading_cache_values WHERE key = ?", -1, &statement, nil)
                == SQLITE_OK
        else { fatalError("C2: the baseline's SELECT does not prepare against the cache's schema") }
        defer { sqlite3_finalize(statement) }
        // NB: the disk tier stores a key under its repository's namespace: the value type's name.
        let key = "\(String(reflecting: [SellerContacts].self))|" + "seller".persistentKey
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for _ in 0..<count {
            sqlite3_bind_text(statement, 1, key, -1, transient)
            guard sqlite3_step(statement) == SQLITE_ROW else { fatalError("C2: no row") }
            let data = Data(
                bytes: sqlite3_column_blob(statement, 0), count: Int(sqlite3_column_bytes(statement, 0)))
            _ = try JSONDecoder().decode([SellerContacts].self, from: data)
            sqlite3_reset(statement)
        }
    }

    /// C3: `count` concurrent loads of one key, or of `count` distinct keys. Returns the fetches
    /// made and the most that were in flight at once.
    public static func concurrentLoads(_ count: Int, distinctKeys: Bool) async throws -> (fetches: Int, peak: Int) {
        let counter = LockedValue((fetches: 0, running: 0, peak: 0))
        let repository = KeyedRepository<Int, Int>(memory: MemoryCache(countLimit: count)) { key in
            counter.withLock {
                $0.fetches += 1
                $0.running += 1
                $0.peak = max($0.peak, $0.running)
            }
            // NB: the fetch suspends, as a request would, so concurrent fetches overlap.
            try await Task.sleep(for: .milliseconds(20))
            counter.withLock { $0.running -= 1 }
            return key
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                group.addTask { _ = try await repository.value(for: distinctKeys ? index : 0) }
            }
            try await group.waitForAll()
        }
        return counter.withLock { ($0.fetches, $0.peak) }
    }

    /// C5: `count` saves of distinct keys into a memory tier of 1,000 entries.
    public static func evictingPuts(_ count: Int) async throws {
        let repository = KeyedRepository<Int, Int>(memory: MemoryCache(countLimit: 1_000)) { $0 }
        for key in 0..<count { try await repository.save(key, for: key) }
        precondition(repository.memory.count == 1_000, "C5: the memory tier holds its limit")
    }
}
