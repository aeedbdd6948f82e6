import ContentLoading
import Foundation

/// Sending one mutation: with its context (the element's server value, its entity tag, the
/// value edited), through the retry policy, then settled by what the server answered.
extension Outbox {
    /// Sends one mutation and settles it; `false` when it stays pending (it failed for now, or
    /// its conflict waits for the app).
    ///
    /// A mutation sent again after a conflict (`resending`) goes with that context: the server's
    /// value, its entity tag and the value to send; `keptBase` is the element's kept server value
    /// then. What the server says then is its answer.
    func send(
        _ mutation: any Mutation<Element, Environment>, _ stored: DiskCache.StoredMutation,
        resending: MutationContext<Element>? = nil, over keptBase: DiskCache.ElementBase? = nil
    ) async -> Bool {
        let pending = pending(stored, mutation)
        let context: MutationContext<Element>
        var base: DiskCache.ElementBase?
        // NB: whether `context` was made over `base`, so that an answer that is the value sent is
        // what the row shows already (see `DiskCache.Settlement.sentOver`).
        var isOverBase = false
        do {
            if let resending {
                context = resending
            } else {
                (context, base, isOverBase) = try await self.context(for: mutation, stored)
            }
        } catch {
            // NB: a kept server value that does not read waits too: the next fetch of the
            // element writes the server's value again.
            waitForRetry(pending, failure("read the server value of", key: "\(store.type) \(stored.elementID)", error))
            return false
        }
        // NB: noted before it goes: a value fetched after the server stored it is the value it
        // sends, and holds it already; sent again, it is this request again while nothing new
        // is learned of the element (see `DiskCache+SentRequests.swift`). An edit that does not
        // encode is noted as none: then no fetched value is taken to hold it.
        let sending = try? context.edited.map(ElementStore<Element>.encoded)
        store.disk.noteSending(
            stored,
            DiskCache.SentRequest(
                elementType: stored.elementType, value: sending, keptBase: resending == nil ? base : keptBase,
                isOverKeptBase: isOverBase, context: context))
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
            return await reject(stored, pending, error)
        }
        // NB: an answer that is another element cannot be this one's server value.
        if let value = result.value, value.id != mutation.elementID {
            let error = failure(
                "store the answer to a mutation of", key: "\(store.type) \(stored.elementID)",
                AnswerIsAnotherElement(id: value.id.persistentKey))
            return await reject(stored, pending, error)
        }
        let change: DiskCache.ServerValueChange
        var sentOver: (base: Data, edited: Data)?
        do {
            if let value = result.value {
                let answer = try ElementStore<Element>.encoded(value)
                change = .answer(answer, entityTag: result.entityTag)
                if isOverBase, let base = base?.value, let sending { sentOver = (base, sending) }
            } else if !isOverBase {
                // NB: the value sent over the server's (after a conflict, or that request again),
                // not the mutation over the copy kept.
                change = .answer(sending, entityTag: result.entityTag)
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

    /// What `mutation` is sent with: its key, and the element's server value and shown value;
    /// with the server value as kept. The mutation's last request again when the kept server
    /// value is the one it went with (its answer was lost: the same body and entity tag under
    /// the same key). A server value that is what that request sent (fetched after the server
    /// stored it) holds the mutation: it is sent as it is.
    private func context(for mutation: any Mutation<Element, Environment>, _ stored: DiskCache.StoredMutation)
        async throws -> (MutationContext<Element>, base: DiskCache.ElementBase?, isOverBase: Bool)
    {
        // NB: the reads of elements sent side by side that wait together are one hop onto the file.
        let (disk, type) = (store.disk, store.type)
        let base = try await baseReads.submit(stored.elementID) { ids in try await disk.bases(type: type, ids: ids) }
        if let last = store.disk.lastRequest(of: stored), last.keptBase == base,
            let context = last.context as? MutationContext<Element>, context.idempotencyKey == stored.idempotencyKey
        {
            return (context, base, last.isOverKeptBase)
        }
        let decoder = JSONDecoder()
        let server = try base?.value.map { try decoder.decode(Element.self, from: $0) }
        let edited = store.disk.holds(stored, base?.value) ? server : server.map(mutation.applied(to:))
        let context = MutationContext(
            idempotencyKey: stored.idempotencyKey, entityTag: base?.entityTag, serverValue: server, edited: edited,
            attempt: 1)
        return (context, base, true)
    }

    /// Rolls `stored` back alone and tells ``OutboxEvent/rejected(_:_:)`` with `error`; `false`,
    /// with a `willRetry` event, when the rollback could not be written (it stays pending).
    private func reject(
        _ stored: DiskCache.StoredMutation, _ pending: PendingMutation<Element, Environment>, _ error: any Error
    ) async -> Bool {
        guard await settled(stored, .unchanged, pending: pending, error: error) else { return false }
        broadcast.send(.rejected(pending, error))
        return true
    }

    /// Whether `error` (after the retry policy's attempts) is one that may pass by itself.
    private func isTransient(_ error: any Error) -> Bool {
        switch error {
        case let exhausted as RetriesExhausted: retryPolicy.isTransient(exhausted.lastError)
        case is RetryDeadlineExceeded, is CancellationError: true
        default: retryPolicy.isTransient(error)
        }
    }
}

/// A mutation's answer (``MutationResult/value``) that is another element than the one it
/// edits.
private struct AnswerIsAnotherElement: Error, CustomStringConvertible {
    let id: String
    var description: String { "the answer is the element \(id), not the one edited; the mutation is rolled back" }
}
