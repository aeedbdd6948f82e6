import ContentLoading
import ContentLoadingSupport
import Foundation

/// Edits that survive: mutations of the elements of an ``ElementStore``, shown at once by every
/// reader, kept in the store's file until the server confirms them, and sent in order.
///
/// ```swift
/// let outbox = Outbox(store: contacts, environment: client, mutations: [Rename.self])
/// try await outbox.perform(Rename(id: 42, phone: "+1 555 0100"))   // every screen shows it at once
/// ```
///
/// - **Optimistic, everywhere.** ``perform(_:)`` applies the mutation to the element before any
///   request: every list, detail and paged list over the store holding it shows it, on disk too.
/// - **Durable.** The mutation is written to the file in the same transaction as the element it
///   changes; once `perform` returns it is never lost. A new outbox over the file (the next
///   launch) sends what is pending with no user action; so does the next request that succeeds
///   through the store (a list, detail or page fetched) after a send failed for now.
/// - **Server truth plus pending changes.** The element's server value is kept apart while it
///   has pending mutations: a value fetched for it meanwhile becomes its server value, and
///   readers see it with the pending mutations applied over it, in order, so a fetch never
///   brings back the value from before an edit.
/// - **In order, exactly once.** The mutations of one element (or sharing a
///   ``Mutation/scope``) are sent one at a time, in the order performed; the others side by
///   side, also between outboxes over one ``DiskCache``. Each carries an idempotency key that
///   stays the same across retries and relaunches (sent again after a conflict, it is another
///   request, with a new key).
/// - **Confirm or roll back, precisely.** The server's answer becomes the element's server
///   value. A mutation rejected for good is rolled back alone: the element shows its server
///   value with the other pending mutations applied. ``events`` tells a screen what happened.
public final class Outbox<Element: Identifiable & Codable & Sendable, Environment: Sendable>: Sendable
where Element.ID: CacheKey {
    /// The store whose elements the mutations edit.
    public let store: ElementStore<Element>
    let environment: Environment
    let retryPolicy: RetryPolicy
    /// Reads the stored mutations back as the types given.
    let decoder: MutationDecoder<Element, Environment>
    let broadcast = Broadcast<OutboxEvent<Element, Environment>>()
    /// The queue's run in progress, the signal of its end, and whether another must follow it.
    let run = Locked<(task: Task<Void, Never>?, ended: SettleSignal<Void>?, again: Bool)>((nil, nil, false))
    /// The conflicts held for the app to decide, by mutation sequence.
    let held = Locked<[Int: HeldConflict<Element>]>([:])
    /// The mutations whose send failed for now (``OutboxEvent/willRetry(_:_:)`` told) since they
    /// were last claimed: the run that told it may not have let go of one yet.
    let failedForNow = Locked<Set<Int>>([])
    /// The mutations being sent, cancelled or held for the app, by every outbox over the
    /// store's file connection: one at a time does any of these.
    let claims: MutationClaims
    /// Whether the queue is paused (``pause()``).
    let paused: Locked<Bool>
    /// The settlements: those that wait while one is written are written together, in one
    /// transaction (the answers of elements sent side by side arrive together).
    let settles = Batcher<QueuedSettlement, Void>()
    /// The reads of the elements' kept server values before their mutations are sent: those
    /// that wait together are one hop onto the file.
    let baseReads = Batcher<String, DiskCache.ElementBase?>()
    /// Whether a mutation failed for now and waits to be sent again: then the next request
    /// that succeeds through the store runs the queue (and clears it).
    let waitsForRequest = Locked(false)

    /// Creates an outbox over `store` and starts sending what the file holds.
    ///
    /// - Parameters:
    ///   - store: The store whose elements the mutations edit.
    ///   - environment: What the mutations send with (an `APIClient`, say).
    ///   - mutations: Every mutation type the app performs: a stored mutation is read back
    ///     through its type's ``Mutation/mutationName``.
    ///   - retryPolicy: How often a transient failure is tried again within one run of the
    ///     queue. Defaults to a `RetryPolicy` with its defaults.
    ///   - isPaused: Whether the queue starts paused: nothing is sent until ``resume()``. Pass
    ///     `true` when the user is signed out at launch, or to subscribe to ``events`` before
    ///     the launch's sends begin. Defaults to `false`.
    public init(
        store: ElementStore<Element>, environment: Environment, mutations: [any Mutation<Element, Environment>.Type],
        retryPolicy: RetryPolicy = RetryPolicy(), isPaused: Bool = false
    ) {
        self.store = store
        paused = Locked(isPaused)
        self.environment = environment
        self.retryPolicy = retryPolicy
        let decoder = MutationDecoder<Element, Environment>(types: mutations)
        self.decoder = decoder
        claims = store.disk.mutationClaims(for: store.type)
        // NB: set before any write that follows: an element written with pending mutations
        // shows them over its new server value from the first write of the launch.
        store.disk.setOverlay({ server, pending in try decoder.applying(pending, to: server) }, for: store.type)
        // NB: the store holds the outbox weakly: an outbox nobody holds stops.
        store.onRequestSucceeded { [weak self] in
            guard let self else { return false }
            requestSucceeded()
            return true
        }
        Task { await self.send() }
    }

    deinit {
        // NB: the conflicts it held for its app go back to the queue: another outbox over the
        // connection sends them (and meets the conflict again), as the next launch would.
        claims.endHolds(held.withLock { Array($0.keys) })
    }

    /// A new stream of what happens to the mutations from now on. To hear the sends a launch
    /// starts, make the outbox paused (`isPaused: true`), subscribe, then ``resume()``.
    public var events: AsyncStream<OutboxEvent<Element, Environment>> { broadcast.subscribe() }

    /// Performs `mutation`: stores it, shows it to every reader of its element, and starts
    /// sending it.
    ///
    /// - Throws: ``CacheError`` naming the file and the element when it cannot be stored: then
    ///   nothing changed and nothing is sent. Also when its type could not be read back from
    ///   the file: a type not given in `mutations:` at the outbox's creation, or one whose
    ///   ``Mutation/mutationName`` another type given has too.
    public func perform(_ mutation: some Mutation<Element, Environment>) async throws {
        let id = mutation.elementID
        // NB: such a mutation was stored, never shown (the element's pending mutations are
        // read back to show them) and set aside by the queue: the edit was lost without a word.
        if let problem = decoder.problem(storing: type(of: mutation)) {
            throw store.failure("perform a mutation of", id, problem)
        }
        try await store.versions.sharing {
            let performedAt = store.now()
            let recorded: (version: UInt64, shown: Data?, sequence: Int)
            do {
                recorded = try await store.disk.recordMutation(
                    type: store.type, id: id.persistentKey, name: type(of: mutation).mutationName,
                    payload: try JSONEncoder().encode(mutation), idempotencyKey: UUID().uuidString,
                    performedAt: performedAt)
            } catch {
                throw store.failure("perform a mutation of", id, error)
            }
            await share(recorded.shown, version: recorded.version, writtenAt: performedAt, origin: .pending)
        }
        Task { await self.send() }
    }

    /// Ends a conflict held for the app (``ConflictResolution/ask``) as `resolution` says, then
    /// sends the element's mutations behind it. Does nothing for a mutation not held.
    ///
    /// The queue sends the mutation again (``ConflictResolution/clientWins``,
    /// ``ConflictResolution/merge``) in its turn, once, as it sends every mutation: while the
    /// queue is paused, when it resumes. ``ConflictResolution/serverWins`` sends nothing: the
    /// mutation is rolled back at once, paused or not.
    public func resolve(_ mutation: PendingMutation<Element, Environment>, with resolution: ConflictResolution) async {
        guard resolution != .ask, let decoded = mutation.mutation else { return }
        let resolved = held.withLock { held -> Bool in
            guard held[mutation.sequence].map({ $0.resolution == nil }) ?? false else { return false }
            held[mutation.sequence]?.resolution = resolution
            return true
        }
        guard resolved else { return }
        // NB: claimed, as the queue claims what it sends: a run meanwhile leaves it alone.
        if resolution == .serverWins, await claimWaitingForLetGo(mutation.sequence) {
            if let heldConflict = dropHeld(mutation.sequence), await end(heldConflict, of: decoded, as: .serverWins) {
                claims.retire(mutation.sequence)
            } else {
                release(mutation.sequence)
            }
        }
        await send()
    }

    /// How many mutations are pending (performed, not yet confirmed or rolled back).
    public func pendingCount() async throws -> Int {
        try await store.disk.pendingMutationCount(type: store.type, id: nil)
    }

    /// How many mutations of the element with `id` are pending.
    public func pendingCount(for id: Element.ID) async throws -> Int {
        try await store.disk.pendingMutationCount(type: store.type, id: id.persistentKey)
    }

    /// How many mutations of the elements of `list` are pending: the count a screen showing
    /// the list (a key's value) says is not sent yet.
    ///
    /// ```swift
    /// let notSent = try await outbox.pendingCount(in: cached.value)   // "2 changes not sent yet"
    /// ```
    public func pendingCount(in list: some Sequence<Element>) async throws -> Int {
        var counts = try await store.disk.pendingMutationCounts(type: store.type)
        var total = 0
        for element in list {
            if counts.isEmpty { break }
            // NB: each element once, however often the list holds it.
            total += counts.removeValue(forKey: element.id.persistentKey) ?? 0
        }
        return total
    }

    /// Shows `shown` (an element's new row) to every reader of the store, as coming from
    /// `origin`: ``CacheOrigin/pending`` while the element has pending mutations,
    /// ``CacheOrigin/remote`` (its server value) once it has none.
    /// With `prefixes`, the change also invalidates those keys in every repository over the store.
    func share(
        _ shown: Data?, version: UInt64, writtenAt: Date, origin: CacheOrigin, invalidating prefixes: [String] = []
    ) async {
        let element = shown.flatMap { try? JSONDecoder().decode(Element.self, from: $0) }
        guard element != nil || !prefixes.isEmpty else { return }
        var change = ElementChange(
            saved: element.map { [$0] } ?? [], version: version, writtenAt: writtenAt, origin: origin)
        change.invalidatedKeyPrefixes = prefixes
        await store.share(change)
    }
}

/// A settlement to write, with the keys it invalidates.
struct QueuedSettlement: Sendable {
    let settlement: DiskCache.Settlement
    let prefixes: [String]
}

/// A stored mutation whose name no mutation type given to the outbox has.
struct UnknownMutation: Error, CustomStringConvertible {
    let name: String
    var description: String { "no mutation type given to the outbox is named \(name)" }
}
