import ContentLoading
import Foundation

/// The persistent tier of a ``KeyedRepository`` of lists over an ``ElementStore``: each list
/// stored as the ordered ids of its elements (under the namespace `[Element type] by Key type|`,
/// so repositories of lists with keys of different types share one store), each
/// element once in the store's rows. A read joins them; an element the store no longer holds
/// (removed) is left out, order kept. Every failure is a ``CacheError`` naming the file and
/// the key.
struct ElementListTier<Key: CacheKey, Element: Identifiable & Codable & Sendable>: PersistentTier, ElementStoring
where Element.ID: CacheKey {
    let store: ElementStore<Element>
    /// The lists' rows: the ordered ids of each list's elements, as any disk tier stores a
    /// value (validators, ages, versions, eviction), under the namespace
    /// `[Element type] by Key type|`.
    let rows: DiskTier<Key, [String]>
    /// Which keys hold which elements, for the lists this tier read or wrote.
    let holders = ElementHolders<Key, Element.ID>()
    /// This tier's identity, so its repository can tell its own writes.
    let origin = WriteOrigin()

    init(store: ElementStore<Element>) {
        self.store = store
        rows = DiskTier(cache: store.disk, namespace: "[\(store.type)] by \(storedTypeName(Key.self))|")
    }

    var cache: DiskCache { store.disk }

    func entry(for key: Key, now: Date) async throws -> PersistedEntry<[Element]>? {
        let stored: (entry: DiskCache.Entry, elements: [String: Data?])?
        do {
            stored = try await cache.listEntry(for: rows.storageKey(key), type: store.type, now: now)
        } catch let corrupt as DiskCache.CorruptEntry {
            throw await discarding(key, foundAt: corrupt.version, rows.failure("read", key, corrupt))
        } catch {
            throw rows.failure("read", key, error)
        }
        guard let (entry, elements) = stored else { return nil }
        let list: [Element]
        let problem: ElementRowsProblem?
        do {
            (list, problem) = try store.decoded(ids: entry.data, rows: elements)
        } catch {
            throw await discarding(key, foundAt: Int(entry.version), rows.failure("decode", key, error))
        }
        // NB: too, not instead: a write of the key may have come since this read began.
        holders.holdToo(list.map(\.id), in: key)
        var read = PersistedEntry(
            value: list, writtenAt: entry.writtenAt, version: entry.version, validators: entry.validators)
        if let problem {
            // NB: the rest of the list is served; only the rows no read can use go.
            await store.removeRows(of: problem, found: elements)
            read.problem = rows.failure(problem.operation, key, problem)
        }
        return read
    }

    func validators(for key: Key) async throws -> (validators: Validators, writtenAt: Date)? {
        try await rows.validators(for: key)
    }

    func write(
        _ value: [Element], for key: Key, writtenAt: Date, validators: Validators, keepingWritesAfter started: UInt64?
    ) async throws -> TierWrite<[Element]> {
        // NB: the server said not to store it: no copy on disk, not even an older one.
        if validators.freshness?.isNoStore == true { return TierWrite(version: try await remove(key)) }
        // NB: held before the write: a save of one of its elements that lands after the write
        // finds the key, and waits for the key's write lock to edit what this write stores.
        // Held after, a save in between reached neither the list in memory nor its readers.
        holders.hold(value.map(\.id), in: key)
        let write: (version: UInt64, kept: [String: Data], removed: Set<String>)
        do {
            let elements = try store.encoded(value)
            write = try await cache.writeList(
                try JSONEncoder().encode(elements.map(\.id)), elements: elements, type: store.type,
                for: rows.storageKey(key),
                writtenAt: writtenAt, validators: validators, keepingWritesAfter: started)
        } catch {
            throw rows.failure("write", key, error)
        }
        guard !write.kept.isEmpty || !write.removed.isEmpty else { return TierWrite(version: write.version) }
        // NB: an element saved after the fetch started is kept in the file, one removed since
        // stays out (and the list is stored without the validators of the list fetched); the
        // readers get the list so too.
        return TierWrite(
            version: write.version, kept: store.keeping(write.kept, removing: write.removed, in: value),
            keptWhole: write.removed.isEmpty ? nil : (writtenAt, validators.stored(leavingOut: write.removed)))
    }

    func confirm(_ value: [Element], for key: Key, _ confirmation: Confirmation) async throws
        -> TierWrite<[Element]>
    {
        try await confirming(value, for: key, confirmation) { try await rows.confirmStored(key, confirmation) }
    }

    func remove(_ key: Key) async throws -> UInt64? {
        holders.release(key)
        return try await rows.remove(key)
    }

    func willPromote(_ value: [Element], for key: Key) {
        holders.holdIfDropped({ value.map(\.id) }, in: key)
    }

    /// NB: the key keeps its place in the holders' index (a key that may hold an id): a write
    /// since the read, which the removal keeps, holds its ids there.
    func discardExpired(_ key: Key, foundAt version: UInt64) async throws {
        try await rows.discardExpired(key, foundAt: version)
    }

    func removeAll() async throws -> UInt64? {
        holders.releaseAll()
        return try await rows.removeAll()
    }

    var latestVersion: UInt64 { cache.latestVersion }
    var fileVersion: UInt64 { cache.fileVersion }

    func startVersion(since seen: UInt64) async -> UInt64 { await cache.startVersion(since: seen) }

    func sharing<Result>(_ write: () async throws -> Result) async rethrows -> Result {
        try await store.versions.sharing(write)
    }

    /// Brings the elements of a list just written to every other key holding them.
    func didWrite(_ value: [Element], for key: Key, version: UInt64, writtenAt: Date) async {
        await store.share(
            ElementChange(
                saved: value, version: version, writtenAt: writtenAt, source: (ObjectIdentifier(origin), key)))
    }

    func save(_ element: Element) async throws -> [Key] {
        try await store.save(element)
        return Array(holders.keys(holding: element.id))
    }

    /// Removes the stored list of `key`, found at `version` (it does not read; the next read is
    /// a plain miss; its elements stay while other lists hold them) unless it was written again
    /// since, then returns `error`.
    private func discarding(_ key: Key, foundAt version: Int?, _ error: CacheError) async -> CacheError {
        try? await cache.removeUnusable(rows.storageKey(key), foundAt: version)
        return error
    }
}
