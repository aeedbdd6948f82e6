/// What happened to a mutation in an ``Outbox``.
public enum OutboxEvent<Element: Identifiable & Codable & Sendable, Environment: Sendable>: Sendable
where Element.ID: CacheKey {
    /// It is being sent: `attempt` counts from 1 within one run of the queue (the retry
    /// policy's attempts), and starts again at 1 in the next run.
    case sending(PendingMutation<Element, Environment>, attempt: Int)
    /// The server confirmed it: its answer is the element's server value, and the mutation is
    /// no longer pending.
    case confirmed(PendingMutation<Element, Environment>)
    /// The server (or the mutation) rejected it with a failure that will not pass: it was
    /// rolled back, alone; the element shows the mutations still pending over its server value.
    case rejected(PendingMutation<Element, Environment>, any Error)
    /// The server refused it because the element changed since the copy it edits; the
    /// mutation's ``Mutation/resolve(_:)`` chose `resolution`.
    ///
    /// When it comes depends on `resolution`:
    /// - ``ConflictResolution/serverWins`` (and a ``ConflictResolution/merge`` that made
    ///   nothing): once the mutation is rolled back, the server's value stored and shown, as
    ///   ``rejected(_:_:)`` and ``confirmed(_:)`` come once settled. When the rollback cannot be
    ///   stored, ``willRetry(_:_:)`` comes instead, and the conflict again in a later run.
    /// - ``ConflictResolution/clientWins``, ``ConflictResolution/merge``: before the mutation is
    ///   sent again (``sending(_:attempt:)``, then its own outcome).
    /// - ``ConflictResolution/ask``: once it is held: ``Outbox/resolve(_:with:)`` ends it.
    case conflict(PendingMutation<Element, Environment>, MutationConflict<Element>, ConflictResolution)
    /// Sending it failed for now (the server unreachable, say): it stays pending, and is sent
    /// again the next time the queue runs (``Outbox/send()``, or the next launch). Also when the
    /// element's server value kept in the store's file cannot be read (a damaged file, or an
    /// element type whose shape changed since): then the error is a ``CacheError`` naming the
    /// file and the element, and the next fetch that brings the element sends it.
    case willRetry(PendingMutation<Element, Environment>, any Error)
    /// Its stored form does not decode as any mutation type the outbox knows (the app's type
    /// changed): it is set aside in the file, out of the queue, which goes on without it.
    case setAside(PendingMutation<Element, Environment>, any Error)
    /// The pending mutations could not be read from the store's file (a damaged file, say):
    /// none was sent in this run. `error`, a ``CacheError``, names the file and what failed.
    /// They stay in the file; the queue tries again at the next ``Outbox/send()``,
    /// ``Outbox/perform(_:)`` or ``Outbox/resume()``, and when a fetch through the store
    /// succeeds.
    case unreadable(CacheError)
}
