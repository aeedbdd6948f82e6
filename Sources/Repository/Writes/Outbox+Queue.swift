import ContentLoading
import Foundation

/// The queue: the pending mutations sent per element, in order, one at a time; the elements
/// side by side.
extension Outbox {
    /// Sends every pending mutation it can now, and returns when the queue has stopped: each
    /// element's mutations confirmed or rolled back, or waiting after a transient failure.
    ///
    /// The outbox runs it itself when it is made (the launch) and after each ``perform(_:)``;
    /// call it when the app is back online.
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
        await overlaySet.wait()
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

    /// One run: the pending mutations read from the file, each element's sent in order.
    private func runQueueOnce() async {
        guard let pending = try? await store.disk.storedMutations(type: store.type) else { return }
        var byElement: [String: [DiskCache.StoredMutation]] = [:]
        for mutation in pending { byElement[mutation.elementID, default: []].append(mutation) }
        await withTaskGroup(of: Void.self) { group in
            for mutations in byElement.values {
                group.addTask { await self.sendInOrder(mutations) }
            }
        }
    }

    /// Sends `mutations` (of one element) one after the other; stops at one that fails for now.
    private func sendInOrder(_ mutations: [DiskCache.StoredMutation]) async {
        for stored in mutations {
            let mutation: any Mutation<Element, Environment>
            do {
                mutation = try Self.decoded(stored, types: types)
            } catch {
                // NB: one that cannot be read is set aside; the element's next ones still go.
                try? await store.disk.setMutationAside(stored.sequence, reason: "\(error)")
                broadcast.send(.setAside(pending(stored, nil), error))
                continue
            }
            guard await send(mutation, stored) else { return }
        }
    }

    /// Sends one mutation and settles it; `false` when it failed for now (it stays pending).
    private func send(_ mutation: any Mutation<Element, Environment>, _ stored: DiskCache.StoredMutation) async
        -> Bool
    {
        let context: MutationContext<Element>
        do {
            context = try await self.context(for: mutation, stored)
        } catch {
            broadcast.send(.willRetry(pending(stored, mutation), error))
            return false
        }
        let environment = environment
        let answer: Element?
        do {
            answer = try await retryPolicy.run {
                try await mutation.send(using: environment, context: context.attempt(RetryAttempt.number))
            }
        } catch  where isTransient(error) {
            broadcast.send(.willRetry(pending(stored, mutation), error))
            return false
        } catch {
            guard (try? await settle(stored, confirmed: false, serverValue: nil)) != nil else {
                broadcast.send(.willRetry(pending(stored, mutation), error))
                return false
            }
            broadcast.send(.rejected(pending(stored, mutation), error))
            return true
        }
        do {
            try await settle(stored, confirmed: true, serverValue: answer.map { try JSONEncoder().encode($0) })
        } catch {
            // NB: confirmed by the server, not by the file: sent again, the key makes it a no-op.
            broadcast.send(.willRetry(pending(stored, mutation), error))
            return false
        }
        broadcast.send(.confirmed(pending(stored, mutation)))
        return true
    }

    /// Removes `stored` from the outbox (confirmed with `serverValue`, or rolled back) and
    /// shows the element as it is now to every reader.
    private func settle(_ stored: DiskCache.StoredMutation, confirmed: Bool, serverValue: Data?) async throws {
        try await store.versions.sharing {
            let writtenAt = store.now()
            let settled = try await store.disk.settleMutation(
                stored, confirmed: confirmed, serverValue: serverValue, entityTag: nil, writtenAt: writtenAt)
            await share(settled.shown, version: settled.version, writtenAt: writtenAt)
        }
    }

    /// What `mutation` is sent with: its key, and the element's server value and shown value.
    private func context(for mutation: any Mutation<Element, Environment>, _ stored: DiskCache.StoredMutation)
        async throws -> MutationContext<Element>
    {
        let base = try await store.disk.base(type: store.type, id: stored.elementID)
        let decoder = JSONDecoder()
        let server = try base?.value.map { try decoder.decode(Element.self, from: $0) }
        let edited = server.map { server in
            var edited = server
            mutation.apply(to: &edited)
            return edited
        }
        return MutationContext(
            idempotencyKey: stored.idempotencyKey, entityTag: base?.entityTag, serverValue: server, edited: edited,
            attempt: 1)
    }

    /// Whether `error` (after the retry policy's attempts) is one that may pass by itself.
    private func isTransient(_ error: any Error) -> Bool {
        switch error {
        case let exhausted as RetriesExhausted: retryPolicy.isTransient(exhausted.lastError)
        case is RetryDeadlineExceeded, is CancellationError: true
        default: retryPolicy.isTransient(error)
        }
    }

    private func pending(_ stored: DiskCache.StoredMutation, _ mutation: (any Mutation<Element, Environment>)?)
        -> PendingMutation<Element, Environment>
    {
        PendingMutation(
            sequence: stored.sequence, elementKey: stored.elementID, name: stored.name,
            idempotencyKey: stored.idempotencyKey, performedAt: stored.performedAt, mutation: mutation)
    }
}
