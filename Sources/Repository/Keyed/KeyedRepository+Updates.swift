import Foundation

extension KeyedRepository {
    /// Changes the value of `key` with `transform`, in one write: `transform` gets the value held
    /// (`nil` when there is none or it has expired) and returns the new value, which is written
    /// as ``save(_:for:)`` writes one: the persistent tier first, then memory and every live
    /// reader of `key` (origin ``CacheOrigin/local``), with no request. Returning `nil` writes
    /// nothing. `transform` is called once.
    ///
    /// No other write of `key` lands between the read and the write, so updates made side by
    /// side all land, each over the one before it:
    /// - A write through this repository (a save, a removal, a fetch's result, another update,
    ///   ``save(element:)``) waits for the update.
    /// - Over a ``DiskCache`` or an ``ElementStore``, the value is read from the file and the
    ///   new one written in one transaction of it. So a write made elsewhere (another
    ///   repository or process on the file; over an element store, a save of one of the list's
    ///   elements through the store, or through another list or detail holding it) lands
    ///   before the read, and `transform` is given it, or after the write. None is written over
    ///   with a value read before it. `transform` runs while the file is locked for the write:
    ///   keep it quick.
    ///
    /// A value read with ``cachedValue(for:)`` and saved back has no such guarantee: a fetch
    /// that stores a newer value in between is overwritten by the older one, edited. It is
    /// TanStack Query's `setQueryData(key, updater)`.
    ///
    /// - Note: An element with pending ``Outbox`` mutations that `transform` leaves as it was
    ///   stays as it is; one it changes becomes the element's server value, with the mutations
    ///   shown over it (see <doc:OfflineEdits>): change those with a mutation.
    ///
    /// ```swift
    /// try await contacts.update(sellerID) { list in
    ///     list.map { $0 + [added] }   // nothing held: nothing written, the next fetch brings it
    /// }
    /// ```
    ///
    /// - Returns: The value the readers of `key` have now: the one written, or, when
    ///   `transform` returned `nil`, the one it was given.
    /// - Throws: The error of reading the stored value (an entry that cannot be read, or a
    ///   list holding an element that cannot be decoded): then `transform` is not called and
    ///   nothing is written, so no update is made on a part of the value. `transform`'s error:
    ///   nothing is written. A ``CacheError`` when the disk write fails: nothing changed, and
    ///   the readers get the error as an event, as for a save.
    @discardableResult
    public func update(_ key: Key, _ transform: @Sendable (Value?) throws -> Value?) async throws -> Value? {
        try await sharingWrite {
            let (current, delivery) = try await withChannel(for: key) { channel in
                // NB: under the key's write lock, as an element's patch is: every write of the
                // key takes it, so none lands between the read and the write back.
                try await channel.writes.withLock { [self] () async throws -> (Value?, KeyChannel<Value>.Delivery?) in
                    let (hit, failure) = await lookUp(key)
                    if let failure { throw failure }
                    if let updated = try await updateStored(key, held: hit, in: channel, transform) { return updated }
                    guard let changed = try transform(hit?.value) else { return (hit?.value, nil) }
                    let delivery = try await reportingFailure(in: channel) {
                        try await writeThrough(changed, for: key, in: channel, origin: .local)
                    }
                    return (Self.value(handedOverBy: delivery), delivery)
                }
            }
            await shareWrite(delivery, of: key)
            return current
        }
    }

    /// The update of `key` where the persistent tier reads and writes in one transaction: the
    /// stored value is read again there and given to `transform` (or, when the tier holds none,
    /// the value memory held: one the server said not to store, or one evicted), and what it
    /// returns is written, then handed to memory and the readers. So a write that another
    /// connection, or an element's save, made since memory read the value is not overwritten
    /// with that older value. `nil` when there is no such tier.
    func updateStored(
        _ key: Key, held hit: Hit?, in channel: KeyChannel<Value>, _ transform: @Sendable (Value?) throws -> Value?
    ) async throws -> (Value?, KeyChannel<Value>.Delivery?)? {
        guard let tier else { return nil }
        let date = now()
        let memoryOnly = hit?.origin == .memory ? hit?.value : nil
        let given: @Sendable (PersistedEntry<Value>?) -> Value? = { [self] stored in
            guard let stored else { return memoryOnly }
            return isExpired(stored.writtenAt, at: date) ? nil : stored.value
        }
        let updated: TierUpdate<Value>
        do {
            // NB: `transform` does not escape: the tier calls it before it returns.
            let updating = try await withoutActuallyEscaping(transform) { transform in
                try await tier.update(key, now: date, writtenAt: date) { stored in
                    try UpdateTransformFailure.transforming(given(stored), with: transform)
                }
            }
            guard let updating else { return nil }
            updated = updating
        } catch let failure as UpdateTransformFailure {
            throw failure.error
        } catch {
            channel.readers.send(.failure(error, flight: nil))
            throw error
        }
        guard let (value, write) = updated.written else { return (given(updated.read), nil) }
        let version = try await stored { _ in write.version }
        let delivery = deliver(
            value, as: write, version: version, writtenAt: date, validators: .none, for: key, in: channel,
            origin: .local)
        return (Self.value(handedOverBy: delivery), delivery)
    }

    /// The value the readers have after a write handed over `delivery`: the one written (as
    /// stored), or none (a removal since a fetch started stood).
    private static func value(handedOverBy delivery: KeyChannel<Value>.Delivery) -> Value? {
        guard case .value(let written, _, _, _, _) = delivery else { return nil }
        return written
    }
}
