import Foundation

extension KeyedRepository {
    /// Changes the value of `key` with `transform`, in one write: `transform` gets the value the
    /// tiers hold (memory, then the persistent tier; `nil` when there is none or it has
    /// expired) and returns the new value, which is written as ``save(_:for:)`` writes one: the
    /// persistent tier first, then memory and every live reader of `key` (origin
    /// ``CacheOrigin/local``), with no request. Returning `nil` writes nothing.
    ///
    /// No other write of `key` through this repository (a save, a removal, a fetch's result,
    /// another update, ``save(element:)`` where lists are stored whole) lands between the read
    /// and the write, so updates made side by side all land, each over the one before it. A
    /// value read with ``cachedValue(for:)`` and saved back has no such guarantee: a fetch that
    /// stores a newer value in between is overwritten by the older one, edited. It is TanStack
    /// Query's `setQueryData(key, updater)`.
    ///
    /// - Note: Only the writes made through this repository wait. Another repository or process
    ///   writing the same file may write `key` between the read and the write (its write is
    ///   then overwritten, as by a save). Over an ``ElementStore``, a save of one of the list's
    ///   elements made through the store, or through another repository over it, is such a
    ///   write: one that lands while the update runs is overwritten by that element as
    ///   `transform` returned it, as a ``save(_:for:)`` of the list would. An element with
    ///   pending ``Outbox`` mutations that `transform` leaves as it was stays as it is; one it
    ///   changes becomes the element's server value, with the mutations shown over it (see
    ///   <doc:OfflineEdits>): change those with a mutation.
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
                    guard let changed = try transform(hit?.value) else { return (hit?.value, nil) }
                    let delivery = try await reportingFailure(in: channel) {
                        try await writeThrough(changed, for: key, in: channel, origin: .local)
                    }
                    guard case .value(let written, _, _, _, _) = delivery else { return (nil, delivery) }
                    return (written, delivery)
                }
            }
            await shareWrite(delivery, of: key)
            return current
        }
    }
}
