import ContentLoading
import Foundation

/// Updates: an entry read and its new value written in one transaction, so that no other write
/// of the file (this connection's, another's, another process's) lands between the two. A
/// ``KeyedRepository/update(_:_:)`` writes so: a save made elsewhere either comes before the
/// read, and the new value is made from it, or after the write.
extension DiskCache {
    /// Reads the entry of `key` (`nil`: none; an expired one too: the caller decides) and
    /// gives it to `body`, which returns the value to write at the file's next write version
    /// with no validators (`nil`: nothing is written) and what to return; one transaction.
    ///
    /// - Returns: The version written (`nil`: nothing was), and `body`'s result.
    /// - Throws: `body`'s error, ``CorruptEntry`` when the row does not validate, ``OverLimit``
    ///   when the key and value alone take more than ``byteLimit`` bytes, ``SQLiteError`` when
    ///   the write fails: nothing changes.
    func update<Result: Sendable>(
        _ key: String, now: Date, writtenAt: Date,
        _ body: @Sendable (Entry?) throws -> (data: Data?, result: Result)
    ) async throws -> (version: UInt64?, result: Result) {
        try await writeFault?(key)
        return try await writeTransaction(operation: "write the cache in") {
            let (data, result) = try body(try entry(for: key, now: now))
            guard let data else { return (nil, result) }
            let size = key.utf8.count + data.count
            guard size <= byteLimit else { throw OverLimit(bytes: size, limit: byteLimit) }
            let version = try advanceVersion()
            try insertRow(data, for: key, size: size, version: version, writtenAt: writtenAt, validators: .none)
            return (version, result)
        }
    }

    /// The new list written by an update: its encoded ids and elements.
    typealias UpdatedList = (ids: Data, elements: [EncodedElement])

    /// Reads the list `key` with the stored data of its elements of `type`, by id (see
    /// ``listEntry(for:type:now:)``), and gives them to `body`, which returns the list to write
    /// (`nil`: nothing is written) and what to return; one transaction. The list is written as
    /// a save writes one (see ``writeList(_:elements:type:for:writtenAt:validators:keepingWritesAfter:)``).
    ///
    /// - Returns: What the write stored (`nil`: nothing was written), and `body`'s result.
    /// - Throws: As ``update(_:now:writtenAt:_:)`` does.
    func updateList<Result: Sendable>(
        _ key: String, type: String, now: Date, writtenAt: Date,
        _ body: @Sendable (Entry?, [String: Data?]) throws -> (list: UpdatedList?, result: Result)
    ) async throws -> (written: (version: UInt64, kept: [String: Data], removed: Set<String>)?, result: Result) {
        try await writeFault?(key)
        return try await writeTransaction(operation: "write the cache in") {
            let stored = try entry(for: key, now: now)
            let elements = try stored.map { _ in try memberElements(key, type: type) } ?? [:]
            let (list, result) = try body(stored, elements)
            guard let list else { return (nil, result) }
            let written = try storeList(
                list.ids, size: try listSize(of: list.ids, for: key), elements: list.elements, type: type, for: key,
                writtenAt: writtenAt, validators: .none, keepingWritesAfter: nil)
            return (written, result)
        }
    }

    /// Reads element `id` of `type` (see ``elementEntry(type:id:)``) and gives it to `body`,
    /// which returns the element's new data (`nil`: nothing is written) and what to return; one
    /// transaction. The element is written as a save writes one (see
    /// ``writeElement(_:type:id:writtenAt:validators:keepingWritesAfter:)``).
    ///
    /// - Returns: What the write stored (`nil`: nothing was written), and `body`'s result.
    /// - Throws: As ``update(_:now:writtenAt:_:)`` does.
    func updateElement<Result: Sendable>(
        type: String, id: String, writtenAt: Date, _ body: @Sendable (Entry?) throws -> (data: Data?, result: Result)
    ) async throws -> (written: ElementWrite?, result: Result) {
        try await writeFault?("\(type)|\(id)")
        return try await writeTransaction(operation: "write the cache in") {
            let (data, result) = try body(try storedElementEntry(type: type, id: id))
            guard let data else { return (nil, result) }
            let written = try storeElement(
                data, type: type, id: id, writtenAt: writtenAt, validators: .none, keepingWritesAfter: nil)
            return (written, result)
        }
    }
}
