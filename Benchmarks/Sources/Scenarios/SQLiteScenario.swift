import ContentLoadingRepository
import Foundation
import SellerContacts

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLiteRaw
#endif

/// Scenario 5: a sync of 10,000 contacts into the SQLite store in one transaction, against
/// raw sqlite3 prepared inserts in one transaction (same pragmas: WAL, synchronous NORMAL).
public enum SQLiteScenario {
    /// `count` distinct contacts, in order.
    public static func contacts(_ count: Int) -> [SellerContacts] {
        (0..<count).map { SellerContacts(address: "\($0) Market Street", order: $0, phone: "+1 555 \(100_000 + $0)") }
    }

    static func freshPath() throws -> String {
        try ScratchFolder.make("sqlite").appendingPathComponent("contacts.sqlite").path
    }

    /// The kit: a `Synchronizer` sync into a fresh `SQLiteStore` with one observer. Returns how
    /// many emissions the observer saw for the write (the target is exactly one).
    public static func kit(_ contacts: [SellerContacts]) async throws -> Int {
        let store = try SQLiteStore<SellerContacts>(.file(path: try freshPath()))
        let observed = try await store.observe()
        let emissions = Task {
            var count = 0
            for await list in observed where list.count == contacts.count { count += 1 }
            return count
        }
        let outcome = try await Synchronizer(store: store) { contacts }.sync()
        precondition(outcome == .updated, "the sync did not update")
        emissions.cancel()
        return await emissions.value
    }

    /// The baseline: raw sqlite3, one transaction of prepared inserts.
    public static func raw(_ contacts: [SellerContacts]) throws {
        var db: OpaquePointer?
        guard sqlite3_open(try freshPath(), &db) == SQLITE_OK, let db else { fatalError("open failed") }
        defer { sqlite3_close(db) }
        sqlite3_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL", nil, nil, nil)
        sqlite3_exec(
            db, "CREATE TABLE seller_contacts (\"order\" INTEGER PRIMARY KEY NOT NULL, phone TEXT, address TEXT)", nil,
            nil, nil)
        sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil)
        var statement: OpaquePointer?
        sqlite3_prepare_v2(
            db, "INSERT INTO seller_contacts (\"order\", phone, address) VALUES (?, ?, ?)", -1, &statement, nil)
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for contact in contacts {
            sqlite3_bind_int64(statement, 1, Int64(contact.order))
            sqlite3_bind_text(statement, 2, contact.phone, -1, transient)
            sqlite3_bind_text(statement, 3, contact.address, -1, transient)
            guard sqlite3_step(statement) == SQLITE_DONE else { fatalError("insert failed") }
            sqlite3_reset(statement)
        }
        sqlite3_finalize(statement)
        sqlite3_exec(db, "COMMIT", nil, nil, nil)
    }
}
