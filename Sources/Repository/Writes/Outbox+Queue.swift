import ContentLoading
import ContentLoadingSupport
import Foundation

/// The queue: the pending mutations sent per element (or per scope they share), in order, one
/// at a time; the elements and scopes side by side.
extension Outbox {
    /// Sends every pending mutation it can now, and returns when the queue has stopped: each
    /// element's mutations confirmed or rolled back, or waiting after a transient failure.
    ///
    /// The outbox runs it itself when it is made (the launch), after each ``perform(_:)`` and
    /// after the next request through the store that succeeds once a send failed for now; call
    /// it to retry at once (the app is back online, or the user asked). A caller whose task is
    /// cancelled stops waiting at once; the queue goes on.
    public func send() async {
        let ended = run.withLock { run -> SettleSignal<Void> in
            if let ended = run.ended {
                run.again = true
                return ended
            }
            let ended = SettleSignal<Void>()
            (run.task, run.ended) = (Task { await self.runQueue(ending: ended) }, ended)
            return ended
        }
        _ = await ended.wait()
    }

    /// Runs the queue until no run was asked for while it ran, then resolves `ended`.
    private func runQueue(ending ended: SettleSignal<Void>) async {
        while true {
            run.withLock { $0.again = false }
            await runQueueOnce()
            let done = run.withLock { run -> Bool in
                guard !run.again else { return false }
                (run.task, run.ended) = (nil, nil)
                return true
            }
            if done { break }
        }
        ended.resolve(())
    }

    /// One run: the pending mutations read from the file, each chain (an element's, or those
    /// sharing a scope) sent in order, the chains side by side.
    private func runQueueOnce() async {
        guard !paused.withLock({ $0 }) else { return }
        // NB: while it goes, the mutations that leave the queue are remembered, so that it
        // skips them (it read them before); after, they are forgotten.
        let run = claims.beginRun()
        defer { claims.endRun(run) }
        let pending: [DiskCache.StoredMutation]
        do {
            pending = try await store.disk.storedMutations(type: store.type)
        } catch {
            // NB: told, not swallowed: nothing goes until the file can be read, and the next
            // fetch that succeeds through the store runs the queue again, as after a failure.
            waitForRequest(
                telling: .unreadable(failure("read the pending mutations from", key: "outbox of \(store.type)", error)))
            return
        }
        // NB: one that does not decode has no scope: it is in its element's chain, and set aside there.
        let chains = MutationChains.chains(pending) { [decoder] in (try? decoder.decoded($0))?.scope }
        await withTaskGroup(of: Void.self) { group in
            for chain in chains {
                group.addTask { await self.sendInOrder(chain) }
            }
        }
    }

    /// Sends `mutations` (a chain) one after the other; stops at one that fails for now or is
    /// held for the app to decide.
    private func sendInOrder(_ mutations: [DiskCache.StoredMutation]) async {
        for stored in mutations {
            // NB: a conflict held for the app stops the chain until the app resolves it.
            if paused.withLock({ $0 }) || held.withLock({ $0[stored.sequence].map { $0.resolution == nil } ?? false }) {
                return
            }
            // NB: one another call or outbox has stops the chain (the claims wake this queue when
            // it is let go); a cancelled one is skipped.
            switch claim(stored.sequence) {
            case .claimed: failedForNow.withLock { _ = $0.remove(stored.sequence) }
            case .taken: return
            case .retired: continue
            }
            // NB: one that left the queue is retired: a run (another outbox's) that read it
            // before skips it rather than send it again.
            var left = false
            defer { left ? claims.retire(stored.sequence) : release(stored.sequence) }
            let mutation: any Mutation<Element, Environment>
            do {
                mutation = try decoder.decoded(stored)
            } catch {
                // NB: one that cannot be read is set aside; the element's next ones still go.
                left = (try? await store.disk.setMutationAside(stored.sequence, reason: "\(error)")) != nil
                broadcast.send(.setAside(pending(stored, nil), error))
                continue
            }
            // NB: a conflict the app resolved ends here, claimed: sent again once, in its turn.
            if let resolved = dropHeld(stored.sequence, onlyResolved: true), let resolution = resolved.resolution {
                left = await end(resolved, of: mutation, as: resolution)
                guard left else { return }
                continue
            }
            left = await send(mutation, stored)
            guard left else { return }
        }
    }

    /// Settles `stored` (see `DiskCache.settleMutations`) and shows the element as it is now to
    /// every reader; `false`, with a `willRetry` event, when the file could not be written (it
    /// stays pending).
    func settled(
        _ stored: DiskCache.StoredMutation, _ change: DiskCache.ServerValueChange,
        sentOver: (base: Data, edited: Data)? = nil, pending: PendingMutation<Element, Environment>,
        error: (any Error)?, invalidating prefixes: [String] = []
    ) async -> Bool {
        do {
            try await settle(stored, change, sentOver: sentOver, invalidating: prefixes)
            return true
        } catch let failure {
            waitForRetry(pending, error ?? failure)
            return false
        }
    }

    /// Settles `stored` in the file (see `DiskCache.settleMutations`) and shows the element as it
    /// is now to every reader; invalidates the keys with `prefixes` in every repository over the
    /// store (a confirmed mutation's ``Mutation/invalidatedKeyPrefixes``).
    ///
    /// The settlements that wait while one is being written are written together, in one
    /// transaction (the answers of elements sent side by side arrive together).
    func settle(
        _ stored: DiskCache.StoredMutation, _ change: DiskCache.ServerValueChange,
        sentOver: (base: Data, edited: Data)? = nil, invalidating prefixes: [String] = []
    ) async throws {
        let settlement = QueuedSettlement(
            settlement: DiskCache.Settlement(mutation: stored, change: change, sentOver: sentOver), prefixes: prefixes)
        try await settles.submit(settlement) { [self] batch in try await write(batch) }
    }

    /// Writes `batch` in one transaction and shows each element as it is now to every reader.
    private func write(_ batch: [QueuedSettlement]) async throws -> [Void] {
        try await store.versions.sharing {
            let writtenAt = store.now()
            let settled = try await store.disk.settleMutations(batch.map(\.settlement), writtenAt: writtenAt)
            for (queued, element) in zip(batch, settled.elements) {
                await share(
                    element.shown, version: settled.version, writtenAt: writtenAt,
                    origin: element.isPending ? .pending : .remote, invalidating: queued.prefixes)
            }
            return batch.map { _ in () }
        }
    }

    func pending(_ stored: DiskCache.StoredMutation, _ mutation: (any Mutation<Element, Environment>)?)
        -> PendingMutation<Element, Environment>
    {
        PendingMutation(
            sequence: stored.sequence, elementKey: stored.elementID, name: stored.name,
            idempotencyKey: stored.idempotencyKey, performedAt: stored.performedAt, mutation: mutation)
    }

    /// Keeps `pending` for a later run after a failure that may pass (``OutboxEvent/willRetry``):
    /// the next request that succeeds through the store runs the queue again.
    func waitForRetry(_ pending: PendingMutation<Element, Environment>, _ error: any Error) {
        // NB: marked before the app hears of it: it may cancel it as soon as it does.
        failedForNow.withLock { _ = $0.insert(pending.sequence) }
        waitForRequest(telling: .willRetry(pending, error))
    }

    /// Runs the queue again when the next request through the store succeeds; tells `event`.
    private func waitForRequest(telling event: OutboxEvent<Element, Environment>) {
        waitsForRequest.withLock { $0 = true }
        broadcast.send(event)
    }

    /// A ``CacheError`` naming the store's file and `key` for `error` met while doing `operation`.
    func failure(_ operation: String, key: String, _ error: any Error) -> CacheError {
        CacheError(operation: operation, path: store.disk.path, key: key, reason: CacheError.reason(error))
    }

    /// A request of a repository or paging list over the store succeeded: the server can be
    /// reached again, so mutations kept after a transient failure are sent.
    func requestSucceeded() {
        guard
            waitsForRequest.withLock({ waits in
                defer { waits = false }; return waits
            })
        else { return }
        Task { await send() }
    }
}
