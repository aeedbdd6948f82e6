import ContentLoadingRepository
import Foundation
import KitTestSupport
import Testing

/// Repositories of different value types share one cache file without colliding: each stores
/// under its own namespace; entries written before namespaces are claimed by the repository
/// they decode for.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct DiskCacheNamespaceTests {
    struct Profile: Codable, Sendable, Equatable { let name: String }

    @Test func twoValueTypesOnOneFileKeepTheirOwnEntries() async throws {
        let disk = try DiskCache(.file(path: try temporaryCachePath()))
        let names = KeyedRepository<String, [String]>(disk: disk) { _ in ["fetched"] }
        let profiles = KeyedRepository<String, Profile>(disk: disk) { _ in Profile(name: "fetched") }
        try await names.save(["Ada", "Grace"], for: "seller-7")
        try await profiles.save(Profile(name: "Ada"), for: "seller-7")
        names.memory.removeAll()
        profiles.memory.removeAll()

        #expect(try await names.value(for: "seller-7", policy: .returnCacheDontLoad)?.value == ["Ada", "Grace"])
        #expect(try await profiles.value(for: "seller-7", policy: .returnCacheDontLoad)?.value == Profile(name: "Ada"))
        #expect(
            try await disk.keysByAccess().sorted() == [
                "RepositoryTests.DiskCacheNamespaceTests.Profile|seller-7",
                "Swift.Array<Swift.String>|seller-7",
            ])

        try await names.removeAll()
        #expect(try await names.value(for: "seller-7", policy: .returnCacheDontLoad) == nil)
        #expect(
            try await profiles.value(for: "seller-7", policy: .returnCacheDontLoad)?.value == Profile(name: "Ada"),
            "one repository's removeAll leaves the other's entries")
    }

    @Test func repositoriesOfOneValueTypeShareTheirEntriesAndTheirRemoveAll() async throws {
        let disk = try DiskCache(.file(path: try temporaryCachePath()))
        let first = KeyedRepository<String, [String]>(disk: disk) { _ in ["fetched"] }
        let second = KeyedRepository<String, [String]>(disk: disk) { _ in ["fetched"] }
        try await second.save(["Ada"], for: "seller-7")
        #expect(try await first.value(for: "seller-7", policy: .returnCacheDontLoad)?.value == ["Ada"])

        try await first.removeAll()
        second.memory.removeAll()
        #expect(try await second.value(for: "seller-7", policy: .returnCacheDontLoad) == nil, "shared, so removed")
    }

    @Test func aLegacyEntryIsClaimedOnlyByTheRepositoryItDecodesFor() async throws {
        let path = try temporaryCachePath()
        // An entry as an earlier version stored it (written now): the key's JSON, no namespace.
        let database = try SQLiteDatabase(.file(path: path))
        _ = try DiskCache(.file(path: path))
        try database.execute(
            #"""
            INSERT INTO content_loading_cache VALUES ('"a"', 1, 1, 17, unixepoch(), unixepoch(), NULL, NULL, NULL);
            INSERT INTO content_loading_cache_values VALUES ('"a"', CAST('{"name":"Ada"}' AS BLOB))
            """#
        )
        let disk = try DiskCache(.file(path: path))
        let names = KeyedRepository<String, [String]>(disk: disk) { _ in [] }
        #expect(try await names.value(for: "a", policy: .returnCacheDontLoad) == nil, "not a [String]: left alone")
        let profiles = KeyedRepository<String, Profile>(disk: disk) { _ in Profile(name: "fetched") }
        #expect(try await profiles.value(for: "a", policy: .returnCacheDontLoad)?.value == Profile(name: "Ada"))
        #expect(try await disk.keysByAccess() == ["RepositoryTests.DiskCacheNamespaceTests.Profile|a"])
    }
}
