import ContentLoading
import Foundation

extension ElementStore {
    /// Changes the element with `id` with `transform`, in one write: `transform` gets the
    /// stored element (`nil` when there is none) and returns the new one, which is saved as
    /// ``save(_:)`` saves one: one row, and every list and detail of a repository over this
    /// store that holds `id` gets it, in place, with no request. Returning `nil` writes
    /// nothing. `transform` is called once.
    ///
    /// The element is read and the new one written in one transaction of the file, so no other
    /// write of it lands between the two: a save through this store or another over the file,
    /// a list or detail holding it written by a fetch, in this process or another. Each lands
    /// before the read, and `transform` is given it, or after the write; updates made side by
    /// side all land, each over the one before it. `transform` runs while the file is locked
    /// for the write: keep it quick.
    ///
    /// ```swift
    /// try await contacts.update(id: edited.id) { stored in
    ///     stored.map { var contact = $0; contact.name = newName; return contact }   // nil: nothing stored, nothing written
    /// }
    /// ```
    ///
    /// - Note: An element with pending ``Outbox`` mutations that `transform` changes becomes
    ///   its new server value, with the mutations shown over it; left as it was, it stays as it
    ///   is (see <doc:OfflineEdits>): change such an element with a mutation.
    /// - Returns: The element the readers of `id` have now: the one written (showing the
    ///   pending mutations), or, when `transform` returned `nil`, the one it was given.
    /// - Throws: `transform`'s error; a ``CacheError`` naming the file and the element when
    ///   the stored element cannot be read or decoded (then `transform` is not called), when
    ///   `transform` returns an element with another id, or when the write fails. Then nothing
    ///   changed.
    @discardableResult
    nonisolated(nonsending) public func update(id: Element.ID, _ transform: @Sendable (Element?) throws -> Element?)
        async throws -> Element?
    {
        try await versions.sharing {
            let (current, change) = try await withoutActuallyEscaping(transform) { try await updated(id, $0) }
            if let change { await shareOnMainActorIfHeard(change) }
            return current
        }
    }

    /// Reads element `id`, writes what `transform` makes of it, and shares the change with the
    /// listeners off the main actor; returns the element the readers have now, and the change
    /// (`nil`: nothing was written).
    @concurrent private func updated(_ id: Element.ID, _ transform: @escaping @Sendable (Element?) throws -> Element?)
        async throws -> (Element?, ElementChange<Element>?)
    {
        let writtenAt = now()
        let row: (read: PersistedEntry<Element>?, written: (element: Element, write: DiskCache.ElementWrite)?)
        do {
            row = try await namingUpdateFailures({ failure($0, id, $1) }) {
                try await updateRow(id, writtenAt: writtenAt) {
                    try UpdateTransformFailure.transforming($0?.value, with: transform)
                }
            }
        } catch let failure as UpdateTransformFailure {
            throw failure.error
        }
        guard let (element, write) = row.written else { return (row.read?.value, nil) }
        // NB: with pending mutations, the element shows them over the value saved.
        let shown = write.kept.flatMap { try? JSONDecoder().decode(Element.self, from: $0) } ?? element
        return (
            shown, await shareOffMainActor(ElementChange(saved: [shown], version: write.version, writtenAt: writtenAt))
        )
    }

    /// Reads the row of element `id` and writes what `transform` makes of it (`nil`: nothing),
    /// as a save writes one, in one transaction of the file; shares nothing.
    ///
    /// - Returns: The stored element read, and the element written with what its write did.
    /// - Throws: `transform`'s error; a ``CacheError`` naming
    ///   the element when its row does not decode or `transform` returns another element; the
    ///   file's error otherwise.
    func updateRow(
        _ id: Element.ID, writtenAt: Date,
        _ transform: @escaping @Sendable (PersistedEntry<Element>?) throws -> Element?
    ) async throws -> (read: PersistedEntry<Element>?, written: (element: Element, write: DiskCache.ElementWrite)?) {
        let updated = try await disk.updateElement(type: type, id: id.persistentKey, writtenAt: writtenAt) {
            [self] stored in
            let read = try stored.map { try PersistedEntry<Element>(decoding: $0) { failure("decode", id, $0) } }
            guard let new = try transform(read) else { return (nil, (read, nil as Element?)) }
            // NB: stored under another id, it would be that element to every list holding this one.
            guard new.id == id else { throw failure("write", id, AnotherElement(id: new.id)) }
            return (try Self.encoded(new), (read, new))
        }
        guard let write = updated.written, let element = updated.result.1 else { return (updated.result.0, nil) }
        return (updated.result.0, (element, write))
    }
}
