import ContentLoading
import Foundation

/// The persistent tier of a ``KeyedRepository`` of single elements by id over an
/// ``ElementStore``: the element's own row, the one every list of the store joins, so a detail
/// opens at once from any list that held it (with that list's age). Every failure is a
/// ``CacheError`` naming the file and the element.
struct ElementTier<Element: Identifiable & Codable & Sendable>: PersistentTier where Element.ID: CacheKey {
    let store: ElementStore<Element>
    /// This tier's identity, so its repository can tell its own writes.
    let origin = WriteOrigin()

    var cache: DiskCache { store.disk }

    func entry(for id: Element.ID, now: Date) async throws -> PersistedEntry<Element>? {
        let entry: DiskCache.Entry?
        do {
            entry = try await cache.elementEntry(type: store.type, id: id.persistentKey)
        } catch let corrupt as DiskCache.CorruptEntry {
            // NB: a row that does not validate is a miss from now on (unless written again since).
            try? await cache.removeUnusableElement(
                type: store.type, id: id.persistentKey, found: .version(corrupt.version))
            throw store.failure("read", id, corrupt)
        } catch {
            throw store.failure("read", id, error)
        }
        guard let entry else { return nil }
        do {
            let element = try JSONDecoder().decode(Element.self, from: entry.data)
            return PersistedEntry(
                value: element, writtenAt: entry.writtenAt, version: entry.version, validators: entry.validators)
        } catch {
            try? await cache.removeUnusableElement(
                type: store.type, id: id.persistentKey, found: .version(Int(entry.version)))
            throw store.failure("decode", id, error)
        }
    }

    func validators(for id: Element.ID) async throws -> (validators: Validators, writtenAt: Date)? {
        do {
            guard let entry = try await cache.elementEntry(type: store.type, id: id.persistentKey) else { return nil }
            return (entry.validators, entry.writtenAt)
        } catch {
            throw store.failure("read", id, error)
        }
    }

    func write(
        _ value: Element, for id: Element.ID, writtenAt: Date, validators: Validators,
        keepingWritesAfter started: UInt64?
    ) async throws -> TierWrite<Element> {
        // NB: stored under another id, it would be that element to every list holding this one.
        guard value.id == id else { throw store.failure("write", id, AnotherElement(id: value.id)) }
        if validators.freshness?.isNoStore == true { return TierWrite(version: try await dropCopy(of: id)) }
        let write: DiskCache.ElementWrite
        do {
            write = try await cache.writeElement(
                try ElementStore<Element>.encoded(value), type: store.type, id: id.persistentKey, writtenAt: writtenAt,
                validators: validators, keepingWritesAfter: started)
        } catch {
            throw store.failure("write", id, error)
        }
        // NB: an element saved after the fetch started is kept in the file; the readers get it
        // too, with its own write time and validators.
        return TierWrite(
            version: write.version, kept: write.kept.flatMap { try? JSONDecoder().decode(Element.self, from: $0) },
            keptWhole: write.keptRow, removedSince: write.removedSince)
    }

    func confirm(_ value: Element, for id: Element.ID, _ confirmation: Confirmation) async throws
        -> TierWrite<Element>
    {
        // NB: before `confirming`, whose removal would take the element out of every list.
        guard confirmation.validators.freshness?.isNoStore != true else {
            return TierWrite(version: try await dropCopy(of: id))
        }
        return try await confirming(value, for: id, confirmation) {
            do {
                return try await cache.confirmElement(type: store.type, id: id.persistentKey, confirmation)
            } catch {
                throw store.failure("write", id, error)
            }
        }
    }

    func remove(_ id: Element.ID) async throws -> UInt64? {
        do {
            return try await cache.removeElement(type: store.type, id: id.persistentKey)
        } catch {
            throw store.failure("remove", id, error)
        }
    }

    /// Drops the file's copy of element `id` that a detail wrote, as for a value the server
    /// said not to store: the lists and pages that hold the element keep it (its row stays
    /// theirs), and no removal is remembered, which a fetch would have to keep.
    private func dropCopy(of id: Element.ID) async throws -> UInt64 {
        do {
            return try await cache.dropElementWrittenByID(type: store.type, id: id.persistentKey)
        } catch {
            throw store.failure("remove", id, error)
        }
    }

    /// NB: the detail's copy goes, not the element: the lists that hold it keep it.
    func discardExpired(_ id: Element.ID, foundAt version: UInt64) async throws {
        do {
            try await cache.dropExpiredElement(type: store.type, id: id.persistentKey, foundAt: Int(exactly: version))
        } catch {
            throw store.failure("remove", id, error)
        }
    }

    func removeAll() async throws -> UInt64? {
        do {
            return try await cache.removeElement(type: store.type, id: nil)
        } catch {
            throw CacheError(operation: "remove", path: cache.path, key: "every \(store.type)", reason: "\(error)")
        }
    }

    var latestVersion: UInt64 { cache.latestVersion }

    /// A detail takes the age of a list holding it that a 304 confirmed since its row.
    var agesRenewWithoutWrites: Bool { true }
    var fileVersion: UInt64 { cache.fileVersion }

    func startVersion(since seen: UInt64) async -> UInt64 { await cache.startVersion(since: seen) }

    func sharing<Result>(_ write: () async throws -> Result) async rethrows -> Result {
        try await store.versions.sharing(write)
    }

    /// Takes a removed element out of every list and paging model over the store holding it,
    /// as ``ElementStore/remove(id:)`` does (the repository told the readers of `id`).
    func didRemove(_ id: Element.ID, version: UInt64) async {
        await store.share(
            ElementChange(removed: id, version: version, writtenAt: store.now(), source: (ObjectIdentifier(origin), id))
        )
    }

    /// Takes every element out of every list, detail and paging model over the store (the
    /// repository told its own readers).
    func didRemoveAll(version: UInt64) async {
        await store.share(
            ElementChange(
                removesAll: true, version: version, writtenAt: store.now(),
                source: (ObjectIdentifier(origin), EveryElement())))
    }

    /// Brings an element just written (fetched or saved) to every list holding it.
    func didWrite(_ value: Element, for id: Element.ID, version: UInt64, writtenAt: Date) async {
        await store.share(
            ElementChange(
                saved: [value], version: version, writtenAt: writtenAt, source: (ObjectIdentifier(origin), id)))
    }
}

/// The key of a change that removed every element: no key of any repository.
private struct EveryElement: Hashable, Sendable {}

/// A value fetched or saved for one element's key that is another element.
struct AnotherElement<ID: CacheKey>: Error, CustomStringConvertible {
    let id: ID
    var description: String { "the value is the element \(id.persistentKey), not this one; nothing is stored" }
}
