import ContentLoading
import ContentLoadingRepository
import Foundation

/// Large values in a `DiskCache`: opening one that holds 2,000 values of 30 KB (60 MB), each
/// longer than a file page, so most of each lies in overflow pages (what an app pays at launch
/// before its first cached screen, with a full cache); and revalidating a value of 5 MB that
/// the server has not changed (a 304), after a read of it.
public enum LargeValueScenario {
    /// A file holding `count` values of `bytes` bytes, written through the kit and closed: 2,000
    /// of 30 KB by default; 50,000 of 1 KB is a full cache of small values (a 64 MiB limit holds
    /// about as many).
    public static func largeCache(count: Int = 2_000, bytes: Int = 30_000) async throws -> String {
        let path = try CacheScenario.freshCachePath()
        let value = Data(repeating: 0x5A, count: bytes)
        let repository = KeyedRepository<String, Data>(disk: try DiskCache(.file(path: path))) { _ in Data() }
        for index in 0..<count { try await repository.save(value, for: "value \(index)") }
        return path
    }

    /// Opens the cache at `path` and closes it.
    public static func open(_ path: String) throws {
        _ = try DiskCache(.file(path: path))
    }

    /// A repository over a fresh file holding a value of 5 MB under "big", with the entity tag
    /// "v1"; its fetches answer "not modified" to that tag.
    public static func largeValue() async throws -> KeyedRepository<String, String> {
        let value = String(repeating: "A", count: 5_000_000)
        let repository = KeyedRepository<String, String>(
            disk: try DiskCache(.file(path: try CacheScenario.freshCachePath()))
        ) {
            _, validators in
            validators.entityTag == "v1"
                ? .notModified(Validators(entityTag: "v1")) : .modified(value, Validators(entityTag: "v1"))
        }
        try await repository.refresh("big")
        return repository
    }

    /// A read of "big" from the file, then a revalidation of it (a 304).
    public static func readAndRevalidate(_ repository: KeyedRepository<String, String>) async throws {
        repository.memory.removeAll()
        _ = try await repository.value(for: "big", policy: .returnCacheDontLoad)
        try await repository.refresh("big")
    }
}
