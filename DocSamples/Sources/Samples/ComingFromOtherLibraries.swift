// The samples of "Coming from Store5 or TanStack Query" (ComingFromOtherLibraries.md).
import ContentLoading
import ContentLoadingRepository
import Foundation

public enum ComingFromOtherLibraries {
    public struct Todo: Codable, Sendable, Equatable, Identifiable {
        public let id: Int
        public var title: String

        public init(id: Int, title: String) {
            self.id = id
            self.title = title
        }
    }

    /// A server of to-do lists, by query key.
    public protocol TodosAPI: Sendable {
        func todos(_ key: String) async throws -> [Todo]
    }

    /// What the TanStack Query sample read: the fetched list, what the cache held after the
    /// save and the update, and what it held after the removal.
    public struct QueriesRead: Sendable {
        public let open: CachedValue<[Todo]>?
        public let held: CachedValue<[Todo]>?
        public let afterRemoval: CachedValue<[Todo]>?
    }

    /// The TanStack Query sample, run.
    public static func queries(api: any TodosAPI, updated: [Todo], added: Todo) async throws -> QueriesRead {
        // sample: Sources/Repository/ContentLoadingRepository.docc/ComingFromOtherLibraries.md#1
        let todos = KeyedRepository<String, [Todo]>(
            ages: CacheAges(staleAfter: .seconds(30), expireAfter: .seconds(86_400)),   // staleTime: 30_000
            retry: RetryPolicy(attempts: 4)                                             // retry: 3
        ) { key in try await api.todos(key) }

        let open = try await todos.value(for: "todos/open")   // ensureQueryData: fetched once, then served
        todos.invalidate(keysWithPrefix: "todos/")            // invalidateQueries({ queryKey: ['todos'] })
        try await todos.save(updated, for: "todos/open")      // setQueryData: every reader gets it, no request
        try await todos.update("todos/open") { $0.map { $0 + [added] } }   // setQueryData(key, old => …)
        let held = todos.cachedValue(for: "todos/open")       // getQueryData
        try await todos.remove("todos/open")                  // removeQueries
        // end sample
        return QueriesRead(open: open, held: held, afterRemoval: todos.cachedValue(for: "todos/open"))
    }

    /// What the Store5 sample read, in its order.
    public struct StoreRead: Sendable {
        public let cached: CachedValue<[Todo]>?
        public let fetched: CachedValue<[Todo]>?
        public let local: CachedValue<[Todo]>?
        public let afterClear: CachedValue<[Todo]>?
    }

    /// The Store5 sample, run on a disk cache at `cachePath`.
    public static func store(api: any TodosAPI, cachePath: String, key: String) async throws -> StoreRead {
        // sample: Sources/Repository/ContentLoadingRepository.docc/ComingFromOtherLibraries.md#2
        let todos = KeyedRepository<String, [Todo]>(disk: try DiskCache(.file(path: cachePath))) { key in
            try await api.todos(key)                           // the Fetcher; the disk tier is the SourceOfTruth
        }
        let cached = try await todos.value(for: key)                                  // store.get(key)
        let fetched = try await todos.value(for: key, policy: .reloadIgnoringCache)   // store.fresh(key)
        let local = try await todos.value(for: key, policy: .returnCacheDontLoad)     // localOnly(key)
        try await todos.remove(key)                                                   // store.clear(key)
        try await todos.removeAll()                                                   // store.clear()
        // end sample
        let afterClear = try await todos.value(for: key, policy: .returnCacheDontLoad)
        return StoreRead(cached: cached, fetched: fetched, local: local, afterClear: afterClear)
    }
}
