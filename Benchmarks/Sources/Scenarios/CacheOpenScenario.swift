import ContentLoadingRepository
import Foundation

/// Opening a `DiskCache` that holds large values: 2,000 values of 30 KB (60 MB), each longer
/// than a file page, so most of each lies in overflow pages. What an app pays at launch before
/// its first cached screen, with a full cache.
public enum CacheOpenScenario {
    /// A file holding the values, written through the kit and closed.
    public static func largeCache() async throws -> String {
        let path = try CacheScenario.freshCachePath()
        let value = Data(repeating: 0x5A, count: 30_000)
        let repository = KeyedRepository<String, Data>(disk: try DiskCache(.file(path: path))) { _ in Data() }
        for index in 0..<2_000 { try await repository.save(value, for: "value \(index)") }
        return path
    }

    /// Opens the cache at `path` and closes it.
    public static func open(_ path: String) throws {
        _ = try DiskCache(.file(path: path))
    }
}
