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

    /// Sends one mutation and settles it; `false` when it stays pending (it failed for now, or
    /// its conflict waits for the app).
    ///
    /// A mutation sent again after a conflict (`resending`) goes with that context: the server's
    /// value, its entity tag and the value to send. What the server says then is its answer.
    func send(
        _ mutation: any Mutation<Element, Environment>, _ stored: DiskCache.StoredMutation,
        resending: MutationContext<Element>? = nil
    ) async -> Bool {
        let pending = pending(stored, mutation)
        let context: MutationContext<Element>
        var base: Data?
        do {
            if let resending {
                context = resending
            } else {
                (context, base) = try await self.context(for: mutation, stored)
            }
        } catch {
            // NB: a kept server value that does not read waits too: the next fetch of the
            // element writes the server's value again.
            waitForRetry(pending, failure("read the server value of", key: "\(store.type) \(stored.elementID)", error))
            return false
        }
        let environment = environment
        let result: MutationResult<Element>
        do {
            result = try await retryPolicy.run {
                broadcast.send(.sending(pending, attempt: RetryAttempt.number))
                return try await mutation.send(using: environment, context: context.attempt(RetryAttempt.number))
            }
        } catch {
            if let conflict = Self.conflict(in: error), resending == nil {
                return await resolve(conflict, of: mutation, stored, local: context.edited, sentOver: base)
            }
            if isTransient(error) || Self.conflict(in: error) != nil {
                waitForRetry(pending, error)
                return false
            }
            guard await settled(stored, .unchanged, pending: pending, error: error) else { return false }
            broadcast.send(.rejected(pending, error))
            return true
        }
        let change: DiskCache.ServerValueChange
        var sentOver: (base: Data, edited: Data)?
        do {
            if let value = result.value {
                let answer = try ElementStore<Element>.encoded(value)
                change = .answer(answer, entityTag: result.entityTag)
                if let base, let edited = try context.edited.map(ElementStore<Element>.encoded) {
                    sentOver = (base, edited)
                }
            } else if resending != nil {
                // NB: the value sent over the server's, not the mutation over the copy kept.
                change = .answer(try context.edited.map(ElementStore<Element>.encoded), entityTag: result.entityTag)
            } else {
                change = .mutationApplied(entityTag: result.entityTag)
            }
        } catch {
            waitForRetry(pending, error)
            return false
        }
        // NB: confirmed by the server, not yet by the file: sent again, the key makes it a no-op.
        guard
            await settled(
                stored, change, sentOver: sentOver, pending: pending, error: nil,
                invalidating: mutation.invalidatedKeyPrefixes)
        else { return false }
        broadcast.send(.confirmed(pending))
        return true
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

    /// What `mutation` is sent with: its key, and the element's server value and shown value;
    /// with the server value as kept.
    private func context(for mutation: any Mutation<Element, Environment>, _ stored: DiskCache.StoredMutation)
        async throws -> (MutationContext<Element>, Data?)
    {
        // NB: the reads of elements sent side by side that wait together are one hop onto the file.
        let (disk, type) = (store.disk, store.type)
        let base = try await baseReads.submit(stored.elementID) { ids in try await disk.bases(type: type, ids: ids) }
        let decoder = JSONDecoder()
        let server = try base?.value.map { try decoder.decode(Element.self, from: $0) }
        let edited = server.map(mutation.applied(to:))
        let context = MutationContext(
            idempotencyKey: stored.idempotencyKey, entityTag: base?.entityTag, serverValue: server, edited: edited,
            attempt: 1)
        return (context, base?.value)
    }

    /// Whether `error` (after the retry policy's attempts) is one that may pass by itself.
    private func isTransient(_ error: any Error) -> Bool {
        switch error {
        case let exhausted as RetriesExhausted: retryPolicy.isTransient(exhausted.lastError)
        case is RetryDeadlineExceeded, is CancellationError: true
        default: retryPolicy.isTransient(error)
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
}
