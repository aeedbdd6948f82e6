import ContentLoading
import ContentLoadingSupport
import Foundation

/// Elements stored once per id in a ``DiskCache`` file, shared by every repository made over
/// the store: lists of elements (stored as the ordered ids of their elements) and details (one
/// element by id).
///
/// Saving or removing one element is one row write, and reaches every list and every detail
/// that holds its id: in memory and for live readers at once (origin ``CacheOrigin/local``,
/// order kept, no request), and on disk, because a stored list is read by joining its ids
/// with the element rows, so a relaunch shows the edit too.
///
/// ```swift
/// let contacts = ElementStore<Contact>(disk: disk)
/// let search = KeyedRepository<String, [Contact]>(elements: contacts) { query in try await api.search(query) }
/// let detail = KeyedRepository<Contact.ID, Contact>(elements: contacts) { id in try await api.contact(id) }
///
/// try await contacts.save(edited)   // one row; every list and detail holding edited.id shows it
/// ```
///
/// - A list's row, its membership rows and its elements are written in one transaction. A
///   fetch that started before a save of one of its elements keeps the saved element, in the
///   file and in what its readers get; one that started before a removal leaves the element
///   out.
/// - An element no stored list holds any more is removed with the last list that held it.
///   Element rows are not counted in the disk tier's `byteLimit`; the list rows (their ids)
///   are, and evicting a list frees the elements only it held.
public final class ElementStore<Element: Identifiable & Codable & Sendable>: Sendable where Element.ID: CacheKey {
    /// The file the elements are stored in.
    public let disk: DiskCache
    /// The name element rows are stored under: the element type's name (``storedTypeName(_:)``).
    let type = storedTypeName(Element.self)
    /// The wall clock element writes are stamped with.
    let now: @Sendable () -> Date
    /// The listeners, versions and request actions, shared by every store of the type over
    /// the connection (see ``ElementStoreShared``).
    let shared: ElementStoreShared<Element>
    var versions: ElementVersions<Element.ID> { shared.versions }
    var pageConfirmations: PageConfirmations { shared.pageConfirmations }
    var listeners: ListenerList<Listener> { shared.listeners }
    var mainActorListeners: ListenerList<MainActorListener> { shared.mainActorListeners }
    private var requestActions: ListenerList<@Sendable () -> Bool> { shared.requestActions }

    /// Hears an element change; `false` when its repository is gone.
    typealias Listener = @Sendable (ElementChange<Element>) async -> Bool
    /// Hears an element change on the main actor; `false` when its model is gone.
    typealias MainActorListener = @MainActor @Sendable (ElementChange<Element>) -> Bool

    /// Creates a store of elements in `disk` (the file may hold other repositories' entries).
    ///
    /// Stores of one element type made over one `DiskCache` share their readers: a save
    /// through one reaches every list, detail and paging model over any of them.
    ///
    /// - Parameters:
    ///   - disk: The file.
    ///   - now: The wall clock saves are stamped with. Inject the repositories' test clock.
    public init(disk: DiskCache, now: @escaping @Sendable () -> Date = { Date() }) {
        self.disk = disk
        self.now = now
        shared =
            disk.shared("element store \(storedTypeName(Element.self))", ElementStoreShared<Element>.init)
            ?? ElementStoreShared()
    }

    /// Saves `element`: one row, under its id. Every list and every detail of a repository
    /// over this store that holds its id gets it, in place, with no request.
    ///
    /// An element with pending ``Outbox`` mutations takes `element` as its server value and
    /// shows the mutations over it; saved as it is shown (read and saved back), it stays as it
    /// is (see <doc:OfflineEdits>).
    ///
    /// - Throws: ``CacheError`` naming the file and the element when the write fails: then
    ///   nothing changed.
    ///
    /// The write runs off the main actor. Called on the main actor, the save reaches the paging
    /// models over the store there, without a hop, before it returns.
    nonisolated(nonsending) public func save(_ element: Element) async throws {
        try await versions.sharing {
            await shareOnMainActorIfHeard(try await saved(element))
        }
    }

    /// Writes `element` and shares the change with the listeners off the main actor; returns it.
    @concurrent private func saved(_ element: Element) async throws -> ElementChange<Element> {
        let writtenAt = now()
        let written: DiskCache.ElementWrite
        do {
            let data = try Self.encoded(element)
            written = try await disk.writeElement(
                data, type: type, id: element.id.persistentKey, writtenAt: writtenAt, validators: .none,
                keepingWritesAfter: nil)
        } catch {
            throw failure("write", element.id, error)
        }
        // NB: with pending mutations, the element shows them over the value saved.
        let shown = written.kept.flatMap { try? JSONDecoder().decode(Element.self, from: $0) } ?? element
        return await shareOffMainActor(ElementChange(saved: [shown], version: written.version, writtenAt: writtenAt))
    }

    /// Removes the element with `id`: every list of a repository over this store drops it
    /// (order kept), and its details read "no value". A fetch that started before the removal
    /// (in any repository or process over the file) does not bring it back; one that starts
    /// after it does, as a save does. The lists and stored pages that held it lose their
    /// validators (`ETag`, `Last-Modified`): their next fetch is a full one, since a `304` would
    /// confirm them without an element the server's list still holds.
    ///
    /// - Throws: ``CacheError`` naming the file and the element when the removal fails: then
    ///   nothing changed.
    nonisolated(nonsending) public func remove(id: Element.ID) async throws {
        try await versions.sharing {
            await shareOnMainActorIfHeard(try await removed(id))
        }
    }

    /// Removes the element with `id` and shares the change with the listeners off the main
    /// actor; returns it.
    @concurrent private func removed(_ id: Element.ID) async throws -> ElementChange<Element> {
        let version: UInt64
        do {
            version = try await disk.removeElement(type: type, id: id.persistentKey)
        } catch {
            throw failure("remove", id, error)
        }
        return await shareOffMainActor(ElementChange(removed: id, version: version, writtenAt: now()))
    }

    /// The stored element with `id`; `nil` when there is none.
    ///
    /// - Throws: ``CacheError`` naming the file and the element when it cannot be read or
    ///   decoded.
    public func element(id: Element.ID) async throws -> Element? {
        do {
            guard let entry = try await disk.elementEntry(type: type, id: id.persistentKey) else { return nil }
            return try JSONDecoder().decode(Element.self, from: entry.data)
        } catch {
            throw failure("read", id, error)
        }
    }

    /// Adds `action`, run each time a fetch of a repository or paging list over the store
    /// succeeded and what it found is stored (an ``Outbox`` sends what waits for the server).
    /// `action` returns `false` when its outbox is gone: it is dropped then.
    func onRequestSucceeded(_ action: @escaping @Sendable () -> Bool) { requestActions.add(action) }

    /// A fetch over the store succeeded and its value is stored: the server can be reached.
    func requestSucceeded() {
        for (number, action) in requestActions.current where !action() { requestActions.remove(number) }
    }

    /// A ``CacheError`` naming the file and element `id`.
    func failure(_ operation: String, _ id: Element.ID, _ error: any Error) -> CacheError {
        CacheError(
            operation: operation, path: disk.path, key: "\(type) \(id.persistentKey)",
            reason: CacheError.reason(error))
    }
}
