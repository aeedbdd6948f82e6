import ContentLoading
import Foundation

/// Conflicts: a mutation the server refused because the element changed since the copy it
/// edits (a `412` for a stale `If-Match`, or a `409`) ends as its ``Mutation/resolve(_:)``
/// says, with a ``OutboxEvent/conflict(_:_:_:)`` event each time.
extension Outbox {
    /// Ends `conflict` of `mutation` as the mutation resolves it, or holds it for the app;
    /// whether the element's next mutations may go.
    func resolve(
        _ conflict: WriteConflict, of mutation: any Mutation<Element, Environment>,
        _ stored: DiskCache.StoredMutation, local: Element?, sentOver: DiskCache.ElementBase?
    ) async -> Bool {
        let server = conflict.body.flatMap { try? JSONDecoder().decode(Element.self, from: $0) }
        let refused = HeldConflict(
            stored: stored, conflict: conflict,
            details: MutationConflict(local: local, server: server, entityTag: conflict.entityTag), sentOver: sentOver)
        let resolution = mutation.resolve(refused.details)
        let event = OutboxEvent.conflict(pending(stored, mutation), refused.details, resolution)
        guard resolution != .ask else {
            // NB: held before the app hears of it: it may resolve it as soon as it does.
            hold(refused)
            broadcast.send(event)
            return false
        }
        return await end(refused, of: mutation, as: resolution, announcing: event)
    }

    /// Ends a conflict the server's way (the mutation rolled back, the server's value kept), or
    /// sends the mutation again with the server's entity tag: applied over the server's value
    /// (``ConflictResolution/clientWins``) or as its ``Mutation/merge(_:)`` makes it
    /// (``ConflictResolution/merge``).
    ///
    /// The request sent again has a new idempotency key, stored before it goes: it is another
    /// request (another body, another `If-Match`), and a server that remembers the refusal under
    /// the first key would answer it again. When an outbox in another process over the file
    /// renewed it first, its key is the one sent; when that outbox settled it, it is not sent.
    /// Killed before the answer is stored, the next launch sends the mutation with the new key:
    /// the server's memory of it answers (when it arrived) or the conflict comes again and is
    /// resolved again.
    ///
    /// `event`, the conflict's event when the mutation's own ``Mutation/resolve(_:)`` chose
    /// `resolution`, is sent once the mutation is rolled back (as ``OutboxEvent/rejected(_:_:)``
    /// and ``OutboxEvent/confirmed(_:)`` are once settled: an app that reads the store on it finds
    /// the server's value), or before it is sent again. When the rollback cannot be stored, the
    /// mutation stays pending and meets the conflict again in a later run: no event.
    func end(
        _ conflict: HeldConflict<Element>, of mutation: any Mutation<Element, Environment>,
        as resolution: ConflictResolution, announcing event: OutboxEvent<Element, Environment>? = nil
    ) async -> Bool {
        let (stored, details) = (conflict.stored, conflict.details)
        let pending = pending(stored, mutation)
        let sent: Element? =
            switch resolution {
            case .clientWins: mutation.appliedOverServer(details)
            case .merge: mutation.merge(details)
            case .serverWins, .ask: nil
            }
        guard let sent else {
            // NB: stored in the rows' encoding, not as the body came: the same value fetched
            // later is then the same bytes, and the file keeps its entity tag for `If-Match`.
            // NB: unless a value fetched or saved since (while the conflict was held) is newer.
            let server = details.server.flatMap { try? ElementStore<Element>.encoded($0) }
            let change = DiskCache.ServerValueChange.refusal(
                server, entityTag: details.entityTag, sentOver: conflict.sentOver)
            let ended = await settled(stored, change, pending: pending, error: nil)
            if ended, let event { broadcast.send(event) }
            return ended
        }
        if let event { broadcast.send(event) }
        let key: String?
        do {
            key = try await store.disk.renewIdempotencyKey(
                of: stored.sequence, from: stored.idempotencyKey, to: UUID().uuidString)
        } catch {
            waitForRetry(pending, error)
            return false
        }
        // NB: settled through another connection to the file (an extension's outbox sent it
        // too): sent again from here, under a key of its own, it would be applied twice.
        guard let key else { return await settled(stored, .unchanged, pending: pending, error: nil) }
        let renewed = stored.renewing(idempotencyKey: key)
        let context = MutationContext(
            idempotencyKey: renewed.idempotencyKey, entityTag: details.entityTag, serverValue: details.server,
            edited: sent, attempt: 1)
        return await send(mutation, renewed, resending: context, over: conflict.sentOver)
    }

    /// The conflict `error` reports, also after the retry policy's attempts.
    static func conflict(in error: any Error) -> WriteConflict? {
        let error = (error as? RetriesExhausted)?.lastError ?? error
        return (error as? any WriteConflictError)?.writeConflict
    }
}

/// A conflict a mutation met: kept while it is held for the app (``ConflictResolution/ask``),
/// then with the app's resolution until the queue ends it.
struct HeldConflict<Element: Sendable>: Sendable {
    let stored: DiskCache.StoredMutation
    let conflict: WriteConflict
    let details: MutationConflict<Element>
    /// The element's kept server value (and its entity tag) the mutation was sent over.
    let sentOver: DiskCache.ElementBase?
    /// What the app decided (``Outbox/resolve(_:with:)``); `nil` while it has not.
    var resolution: ConflictResolution? = nil
}
