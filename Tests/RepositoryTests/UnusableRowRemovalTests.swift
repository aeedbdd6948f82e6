import ContentLoadingRepository
import ContentLoadingTesting
import Foundation
import KitTestSupport
import Testing

/// A read that finds a row it cannot use (one that does not decode or validate, an element a
/// list holds whose row is missing) removes it, after decoding it off the file's actor. A save
/// that lands between the read and that removal is kept: the removal takes only the row the
/// read found. (Before, it removed by key or id, and the save was lost.)
///
/// Each test holds the read's removal (`DiskHold`: the first write after it is made), saves
/// meanwhile, then lets the removal go on.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct UnusableRowRemovalTests {
    typealias Contact = ElementStoreTests.Contact

    let path: String
    init() throws { path = try temporaryCachePath() }

    func execute(_ sql: String) throws { try SQLiteDatabase(.file(path: path)).execute(sql) }

    /// Starts `read`, waits until it removes the row it cannot use, runs `save`, then lets the
    /// removal go on; returns the read's error.
    func saving(
        _ save: () async throws -> Void, whileRemoving disk: DiskCache,
        after read: @escaping @Sendable () async throws -> Void
    ) async throws -> (any Error)? {
        let hold = await DiskHold(disk)
        let reading = Task { try await read() }
        await hold.writeReached()
        try await save()
        hold.release()
        do {
            try await reading.value
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        "UPDATE content_loading_cache_values SET value = CAST('[7]' AS BLOB) WHERE key LIKE '%|k'",
        "UPDATE content_loading_cache SET written_at = 'yesterday' WHERE key LIKE '%|k'",
        "UPDATE content_loading_cache SET version = 'seven' WHERE key LIKE '%|k'",
    ])
    func aValueSavedWhileARowThatDoesNotReadIsRemovedIsKept(corruption: String) async throws {
        let disk = try DiskCache(.file(path: path))
        let writer = KeyedRepository<String, [String]>(disk: disk) { _ in [] }
        try await writer.save(["seed"], for: "k")
        try execute(corruption)
        let reader = KeyedRepository<String, [String]>(disk: disk) { _ in [] }

        let error = try await saving({ try await writer.save(["saved"], for: "k") }, whileRemoving: disk) {
            _ = try await reader.value(for: "k", policy: .returnCacheDontLoad)
        }

        #expect(error is CacheError, "the row read is still an error")
        let reopened = KeyedRepository<String, [String]>(disk: try DiskCache(.file(path: path))) { _ in [] }
        #expect(try await reopened.value(for: "k", policy: .returnCacheDontLoad)?.value == ["saved"])
    }

    @Test(arguments: [
        #"UPDATE content_loading_elements SET value = CAST('{"id": 1}' AS BLOB) WHERE id = '1'"#,
        "UPDATE content_loading_elements SET written_at = 'yesterday' WHERE id = '1'",
    ])
    func anElementSavedWhileADetailRowThatDoesNotReadIsRemovedIsKept(corruption: String) async throws {
        let disk = try DiskCache(.file(path: path))
        let store = ElementStore<Contact>(disk: disk)
        try await store.save(Contact(id: 1, phone: "seed"))
        try execute(corruption)
        let details = KeyedRepository<Int, Contact>(elements: store) { Contact(id: $0, phone: "fetched") }

        let error = try await saving({ try await store.save(Contact(id: 1, phone: "saved")) }, whileRemoving: disk) {
            _ = try await details.value(for: 1, policy: .returnCacheDontLoad)
        }

        #expect(error is CacheError)
        let reopened = KeyedRepository<Int, Contact>(elements: ElementStore(disk: try DiskCache(.file(path: path)))) {
            Contact(id: $0, phone: "fetched")
        }
        #expect(try await reopened.value(for: 1, policy: .returnCacheDontLoad)?.value.phone == "saved")
    }

    @Test(arguments: [
        #"UPDATE content_loading_elements SET value = CAST('{"id": 2}' AS BLOB) WHERE id = '2'"#,
        "DELETE FROM content_loading_elements WHERE id = '2'",
    ])
    func anElementSavedWhileAListsUnusableRowOfItIsRemovedStaysInTheList(corruption: String) async throws {
        let disk = try DiskCache(.file(path: path))
        let store = ElementStore<Contact>(disk: disk)
        let writer = KeyedRepository<String, [Contact]>(elements: store) { _ in [] }
        try await writer.save([Contact(id: 1, phone: "one"), Contact(id: 2, phone: "two")], for: "a")
        try execute(corruption)
        let reader = KeyedRepository<String, [Contact]>(elements: store) { _ in [] }

        let error = try await saving({ try await store.save(Contact(id: 2, phone: "saved")) }, whileRemoving: disk) {
            _ = try await reader.value(for: "a", policy: .returnCacheDontLoad)
        }

        #expect((error as? CacheError)?.description.contains("its element 2") == true)
        let reopened = KeyedRepository<String, [Contact]>(
            elements: ElementStore(disk: try DiskCache(.file(path: path)))
        ) {
            _ in []
        }
        let list = try await reopened.value(for: "a", policy: .returnCacheDontLoad)?.value
        #expect(list == [Contact(id: 1, phone: "one"), Contact(id: 2, phone: "saved")], "the list holds it still")
    }

    @Test func aListSavedWhileItsStoredIdsThatDoNotDecodeAreRemovedIsKept() async throws {
        let disk = try DiskCache(.file(path: path))
        let store = ElementStore<Contact>(disk: disk)
        let writer = KeyedRepository<String, [Contact]>(elements: store) { _ in [] }
        try await writer.save([Contact(id: 1, phone: "one")], for: "a")
        try execute("UPDATE content_loading_cache_values SET value = CAST('{' AS BLOB) WHERE key LIKE '%|a'")
        let reader = KeyedRepository<String, [Contact]>(elements: store) { _ in [] }

        let saved = [Contact(id: 3, phone: "three"), Contact(id: 1, phone: "one")]
        let error = try await saving({ try await writer.save(saved, for: "a") }, whileRemoving: disk) {
            _ = try await reader.value(for: "a", policy: .returnCacheDontLoad)
        }

        #expect(error is CacheError)
        let reopened = KeyedRepository<String, [Contact]>(
            elements: ElementStore(disk: try DiskCache(.file(path: path)))
        ) {
            _ in []
        }
        #expect(try await reopened.value(for: "a", policy: .returnCacheDontLoad)?.value == saved)
    }
}
