import ContentLoading
import Foundation

/// The outbox: mutations performed and not yet confirmed by the server, in the order they were
/// performed, each with the idempotency key it is sent with (`content_loading_outbox`); and,
/// for each element with pending mutations, its server value kept apart
/// (`content_loading_element_bases`). The element's own row holds what readers see: its server
/// value with the pending mutations applied, in order, by the element type's ``ElementOverlay``.
/// A mutation, its base and the element row it changes are written in one transaction.
extension DiskCache {
    static let outboxSchema = """
        CREATE TABLE content_loading_outbox (
            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
            element_type TEXT NOT NULL,
            element_id TEXT NOT NULL,
            name TEXT NOT NULL,
            payload BLOB NOT NULL,
            idempotency_key TEXT NOT NULL,
            performed_at REAL NOT NULL,
            set_aside TEXT
        );
        CREATE INDEX content_loading_outbox_by_element ON content_loading_outbox (element_type, element_id, sequence);
        CREATE TABLE content_loading_element_bases (
            type TEXT NOT NULL,
            id TEXT NOT NULL,
            value BLOB,
            entity_tag TEXT,
            PRIMARY KEY (type, id)
        ) WITHOUT ROWID
        """

    /// One stored mutation.
    struct StoredMutation: Sendable {
        let sequence: Int
        let elementType: String
        let elementID: String
        /// The mutation type's stored name.
        let name: String
        let payload: Data
        let idempotencyKey: String
        let performedAt: Date

        /// The same mutation with another idempotency key.
        func renewing(idempotencyKey: String) -> StoredMutation {
            StoredMutation(
                sequence: sequence, elementType: elementType, elementID: elementID, name: name, payload: payload,
                idempotencyKey: idempotencyKey, performedAt: performedAt)
        }
    }

    /// Gives pending mutation `sequence`, sent with idempotency key `current`, the new key
    /// `key` (its next request is another one: sent again after a conflict).
    ///
    /// - Returns: The key its next request goes with: `key`; or the one another connection to
    ///   the file gave it since `current` (its outbox sends the mutation too: with one key, the
    ///   server applies it once); `nil` when it is no longer in the outbox (settled through
    ///   another connection: it is not to be sent again).
    func renewIdempotencyKey(of sequence: Int, from current: String, to key: String) async throws -> String? {
        try await writeFault?("outbox \(sequence)")
        return try await writeTransaction(operation: "write the outbox in") {
            let select = try database.prepare(
                "SELECT idempotency_key FROM content_loading_outbox WHERE sequence = ?", operation: "read the outbox in"
            )
            try select.bind(sequence, at: 1)
            guard try select.step() else { return nil }
            if let stored = select.text(at: 0), stored != current { return stored }
            let update = try database.prepare(
                "UPDATE content_loading_outbox SET idempotency_key = ? WHERE sequence = ?",
                operation: "write the outbox in")
            try update.bind(key, at: 1)
            try update.bind(sequence, at: 2)
            try update.step()
            return key
        }
    }

    /// Records a mutation of element `id` of `type` and shows it, in one transaction: the
    /// element's server value is kept apart (the first time), the mutation is added to the
    /// outbox, and the element row becomes the server value with every pending mutation of the
    /// element applied (by the type's overlay).
    ///
    /// - Returns: The version and the element's shown value; `nil` when the element is not
    ///   stored (the mutation waits in the outbox all the same).
    func recordMutation(
        type: String, id: String, name: String, payload: Data, idempotencyKey: String, performedAt: Date
    ) async throws -> (version: UInt64, shown: Data?, sequence: Int) {
        try await writeFault?("\(type)|\(id)")
        return try await writeTransaction(operation: "write the outbox in") {
            let version = try advanceVersion()
            let base = try keptBase(type: type, id: id)
            let insert = try database.prepare(
                """
                INSERT INTO content_loading_outbox (element_type, element_id, name, payload, idempotency_key, performed_at)
                    VALUES (?, ?, ?, ?, ?, ?) RETURNING sequence
                """, operation: "write the outbox in")
            try insert.bind(type, at: 1)
            try insert.bind(id, at: 2)
            try insert.bind(name, at: 3)
            try insert.bind(payload, at: 4)
            try insert.bind(idempotencyKey, at: 5)
            try insert.bind(Self.storedTime(performedAt), at: 6)
            guard try insert.step() else { throw CorruptEntry(reason: "the outbox gave no sequence") }
            let sequence = insert.int(at: 0)
            while try insert.step() {}
            let shown = try showPending(type: type, id: id, base: base, version: version, writtenAt: performedAt)
            return (version, shown, sequence)
        }
    }

    /// The mutations of elements of `type` in the outbox and not set aside, in the order they
    /// were performed.
    func storedMutations(type: String) throws -> [StoredMutation] {
        let select = try database.prepare(
            """
            SELECT sequence, element_type, element_id, name, payload, idempotency_key, performed_at
                FROM content_loading_outbox WHERE element_type = ? AND set_aside IS NULL ORDER BY sequence
            """, operation: "read the outbox in")
        try select.bind(type, at: 1)
        var mutations: [StoredMutation] = []
        while try select.step() { mutations.append(try Self.mutation(select)) }
        return mutations
    }

    /// How many mutations of elements of `type` (of element `id`, when given) are pending.
    func pendingMutationCount(type: String, id: String?) throws -> Int {
        let select = try database.prepare(
            """
            SELECT count(*) FROM content_loading_outbox
                WHERE element_type = ?1 AND (?2 IS NULL OR element_id = ?2) AND set_aside IS NULL
            """, operation: "read the outbox in")
        try select.bind(type, at: 1)
        try select.bind(id, at: 2)
        return try select.step() ? select.int(at: 0) : 0
    }

    /// How many mutations of each element of `type` are pending, by element id; only the
    /// elements with some.
    func pendingMutationCounts(type: String) throws -> [String: Int] {
        let select = try database.prepare(
            """
            SELECT element_id, count(*) FROM content_loading_outbox
                WHERE element_type = ? AND set_aside IS NULL GROUP BY element_id
            """, operation: "read the outbox in")
        try select.bind(type, at: 1)
        var counts: [String: Int] = [:]
        while try select.step() { counts[select.text(at: 0) ?? "", default: 0] += select.int(at: 1) }
        return counts
    }

    /// Sets mutation `sequence` aside with `reason` (it cannot be sent): it stays in the file,
    /// out of the queue.
    func setMutationAside(_ sequence: Int, reason: String) async throws {
        try await writeFault?("outbox|\(sequence)")
        try await writeTransaction(operation: "write the outbox in") {
            let update = try database.prepare(
                "UPDATE content_loading_outbox SET set_aside = ? WHERE sequence = ?", operation: "write the outbox in")
            try update.bind(reason, at: 1)
            try update.bind(sequence, at: 2)
            try update.step()
        }
    }

    /// Removes every mutation of elements of `type` from the outbox (set aside too), in one
    /// transaction: each element they edited shows its server value again.
    ///
    /// - Returns: The version, the shown value of each element that is stored, and the last
    ///   sequence removed (`nil`: none).
    func removeAllMutations(type: String, writtenAt: Date) async throws
        -> (version: UInt64, shown: [Data], lastSequence: Int?)
    {
        try await writeFault?("outbox|\(type)")
        let removed = try await writeTransaction(operation: "write the outbox in") {
            let version = try advanceVersion()
            let select = try database.prepare(
                "SELECT element_id, max(sequence) FROM content_loading_outbox WHERE element_type = ? GROUP BY element_id",
                operation: "write the outbox in")
            try select.bind(type, at: 1)
            var ids: [String] = []
            var lastSequence: Int?
            while try select.step() {
                ids.append(select.text(at: 0) ?? "")
                lastSequence = max(lastSequence ?? 0, select.int(at: 1))
            }
            let delete = try database.prepare(
                "DELETE FROM content_loading_outbox WHERE element_type = ?", operation: "write the outbox in")
            try delete.bind(type, at: 1)
            try delete.step()
            let shown = try ids.compactMap { id -> Data? in
                guard let base = try base(type: type, id: id) else { return nil }
                return try showPending(type: type, id: id, base: base, version: version, writtenAt: writtenAt)
            }
            return (version, shown, lastSequence)
        }
        forgetSentRequests(ofType: type)
        return removed
    }

    /// The pending mutations of element `id` of `type`, in order.
    func pendingMutations(type: String, id: String) throws -> [StoredMutation] {
        let select = try database.prepare(
            """
            SELECT sequence, element_type, element_id, name, payload, idempotency_key, performed_at
                FROM content_loading_outbox WHERE element_type = ? AND element_id = ? AND set_aside IS NULL
                ORDER BY sequence
            """, operation: "read the outbox in")
        try select.bind(type, at: 1)
        try select.bind(id, at: 2)
        var mutations: [StoredMutation] = []
        while try select.step() { mutations.append(try Self.mutation(select)) }
        return mutations
    }

    private static func mutation(_ select: SQLiteStatement) throws -> StoredMutation {
        guard let payload = select.data(at: 4) else { throw CorruptEntry(reason: "a mutation's payload is missing") }
        return StoredMutation(
            sequence: select.int(at: 0), elementType: select.text(at: 1) ?? "", elementID: select.text(at: 2) ?? "",
            name: select.text(at: 3) ?? "", payload: payload, idempotencyKey: select.text(at: 5) ?? "",
            performedAt: Date(timeIntervalSince1970: select.optionalDouble(at: 6) ?? 0))
    }
}
