import ContentLoading
import Foundation

/// The queue: the pending mutations sent per element (or per scope they share), in order, one
/// at a time; the elements and scopes side by side.
extension Outbox {
    /// Sends every pending mutation it can now, and returns when the queue has stopped: each
    /// element's mutations confirmed or rolled back, or waiting after a transient failure.
    ///
    /// The outbox runs it itself when it is made (the launch), after each ``perform(_:)`` and
    /// after the next request through the store that succeeds once a send failed for now; call
    /// it to retry at once (the app is back online, or the user asked).
    public func send() async {
        let task = run.withLock { run -> Task<Void, Never> in
            if let task = run.task {
                run.again = true
                return task
            }
            let task = Task { await self.runQueue() }
            run.task = task
            return task
        }
        await task.value
    }

    /// Runs the queue until no run was asked for while it ran.
    private func runQueue() async {
        while true {
            run.withLock { $0.again = false }
            await runQueueOnce()
            let done = run.withLock { run -> Bool in
                guard !run.again else { return false }
                run.task = nil
                return true
            }
            if done { return }
        }
    }

    /// One run: the pending mutations read from the file, each chain (an element's, or those
    /// sharing a scope) sent in order, the chains side by side.
    private func runQueueOnce() async {
        guard !paused.withLock({ $0 }) else { return }
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
            // NB: a mutation being cancelled is not sent; the element's next ones wait for the next run.
            guard claim(stored.sequence) else { return }
            defer { release(stored.sequence) }
            let mutation: any Mutation<Element, Environment>
            do {
                mutation = try decoder.decoded(stored)
            } catch {
                // NB: one that cannot be read is set aside; the element's next ones still go.
                try? await store.disk.setMutationAside(stored.sequence, reason: "\(error)")
                broadcast.send(.setAside(pending(stored, nil), error))
                continue
            }
            // NB: a conflict the app resolved ends here, claimed: sent again once, in its turn.
            if let resolved = held.withLock({ held in
                held[stored.sequence]?.resolution != nil ? held.removeValue(forKey: stored.sequence) : nil
            }), let resolution = resolved.resolution {
                guard await end(resolved, of: mutation, as: resolution) else { return }
                continue
            }
            guard await send(mutation, stored) else { return }
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

    /// Claims mutation `sequence` for sending or cancelling; `false` when it is claimed already.
    func claim(_ sequence: Int) -> Bool { claimed.withLock { $0.insert(sequence).inserted } }

    func release(_ sequence: Int) { _ = claimed.withLock { $0.remove(sequence) } }

    /// Claims mutation `sequence`, and while it is a conflict held for the app, waits for the
    /// queue's run to let go of it first; `false` when it stays claimed (it is being sent, or
    /// a cancel or a resolution has it).
    ///
    /// NB: the run that held the conflict tells it before it lets go of the mutation, so an app
    /// that resolves or cancels it at once may find it claimed; a resolution the server wins was
    /// then left to the next run, and with the queue paused the element kept showing the edit.
    /// A run claims only while it is the queue's task, so with none the claim is another call's.
    func claimWaitingForRun(_ sequence: Int) async -> Bool {
        while !claim(sequence) {
            guard held.withLock({ $0[sequence] != nil }), let current = run.withLock({ $0.task }) else { return false }
            await current.value
        }
        return true
    }
}
