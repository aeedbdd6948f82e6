import Foundation

/// What the app controls: which mutations are pending, cancelling one, pausing the queue, and
/// emptying it (a sign-out).
extension Outbox {
    /// Whether the queue is paused: mutations are still performed (stored and shown), and none
    /// is sent until ``resume()``.
    public var isPaused: Bool { paused.withLock { $0 } }

    /// Pauses the queue (while the user is signed out, say). A mutation being sent finishes.
    public func pause() { paused.withLock { $0 = true } }

    /// Ends a pause and sends what is pending; returns as ``send()`` does.
    public func resume() async {
        paused.withLock { $0 = false }
        await send()
    }

    /// The pending mutations, in the order they were performed (``PendingMutation/mutation`` is
    /// `nil` for one that does not decode).
    public func pendingMutations() async throws -> [PendingMutation<Element, Environment>] {
        try await store.disk.storedMutations(type: store.type).map { stored in
            pending(stored, try? decoder.decoded(stored))
        }
    }

    /// Cancels `mutation`: it is rolled back as if the server had rejected it (the element
    /// shows its server value with the other pending mutations applied) and never sent.
    ///
    /// A conflict held for the app (``ConflictResolution/ask``), and a mutation whose send failed
    /// for now (``OutboxEvent/willRetry(_:_:)``), can be cancelled as soon as the app is told.
    ///
    /// - Returns: `false` when it is being sent now (its answer decides) or is no longer pending.
    /// - Throws: ``CacheError`` naming the file when the outbox cannot be read or the rollback
    ///   cannot be written: it stays pending, and is sent.
    @discardableResult
    public func cancel(_ mutation: PendingMutation<Element, Environment>) async throws -> Bool {
        // NB: a held conflict, or one told `willRetry`, is not being sent, though the run that
        // told it may not have let go of it yet: that one is waited for.
        guard await claimWaitingForLetGo(mutation.sequence) else { return false }
        // NB: a cancelled mutation is retired: a run that read it before the cancel skips it.
        // One that could not be cancelled is released, so the queue still sends it.
        do {
            guard
                let stored = try await store.disk.storedMutations(type: store.type).first(where: {
                    $0.sequence == mutation.sequence
                })
            else { return false }
            _ = dropHeld(mutation.sequence)
            try await settle(stored, .unchanged)
            claims.retire(mutation.sequence)
            return true
        } catch {
            release(mutation.sequence)
            throw failure("cancel a mutation in", key: "\(store.type) \(mutation.elementKey)", error)
        }
    }

    /// Empties the queue (a sign-out): waits for a mutation being sent, then rolls every
    /// pending mutation back (and removes those set aside); each element shows its server
    /// value. The queue stays paused or not as it was.
    ///
    /// It waits for the sends of every outbox over the connection, and none starts another
    /// until it is done. An outbox over another connection to the file (an app extension's)
    /// may still send a mutation meanwhile: its answer, after the purge, changes nothing in the
    /// file.
    ///
    /// - Throws: ``CacheError`` naming the file when it cannot be written: then nothing changed.
    public func purge() async throws {
        let wasPaused = paused.withLock { paused in
            defer { paused = true }
            return paused
        }
        defer { if !wasPaused { paused.withLock { $0 = false } } }
        await run.withLock { $0.task }?.value
        // NB: and for the sends of the other outboxes over the connection, which start no more.
        await claims.beginPurge()
        defer { claims.endPurge() }
        let heldSequences = held.withLock { held in
            defer { held.removeAll() }
            return Array(held.keys)
        }
        claims.endHolds(heldSequences)
        failedForNow.withLock { $0.removeAll() }
        do {
            try await store.versions.sharing {
                let writtenAt = store.now()
                let removed = try await store.disk.removeAllMutations(type: store.type, writtenAt: writtenAt)
                // NB: a run of another outbox that read them before skips them once the purge ends.
                if let last = removed.lastSequence { claims.retire(through: last) }
                for shown in removed.shown {
                    await share(shown, version: removed.version, writtenAt: writtenAt, origin: .remote)
                }
            }
        } catch {
            throw failure("purge the outbox in", key: store.type, error)
        }
    }
}
