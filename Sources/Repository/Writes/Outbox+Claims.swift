/// Claims: which mutations this outbox is sending, cancelling or holding for the app, shared
/// with every outbox over the store's file connection (see ``MutationClaims``).
extension Outbox {
    /// Claims mutation `sequence` for sending or cancelling (see ``MutationClaims``).
    func claim(_ sequence: Int) -> MutationClaims.Claim {
        // NB: turned away, the queue runs again when the mutation is let go.
        let owner = MutationClaims.Owner(id: ObjectIdentifier(self)) { [weak self] in
            guard let self else { return }
            Task { await self.send() }
        }
        return claims.claim(sequence, for: owner)
    }

    func release(_ sequence: Int) { claims.release(sequence) }

    /// Holds `conflict` for the app: no run of this outbox or another sends it until it is resolved.
    func hold(_ conflict: HeldConflict<Element>) {
        claims.hold(conflict.stored.sequence, for: ObjectIdentifier(self))
        held.withLock { $0[conflict.stored.sequence] = conflict }
    }

    /// Takes the conflict held for mutation `sequence` out (only once the app resolved it, when
    /// `onlyResolved`); the other outboxes may then claim the mutation.
    func dropHeld(_ sequence: Int, onlyResolved: Bool = false) -> HeldConflict<Element>? {
        let dropped = held.withLock { held -> HeldConflict<Element>? in
            guard let conflict = held[sequence], !onlyResolved || conflict.resolution != nil else { return nil }
            return held.removeValue(forKey: sequence)
        }
        if dropped != nil { claims.endHolds([sequence]) }
        return dropped
    }

    /// Claims mutation `sequence`, and while it is a conflict held for the app, waits for the
    /// queue's run to let go of it first; `false` when it stays claimed (it is being sent, or
    /// a cancel or a resolution has it).
    ///
    /// NB: the run that held the conflict tells it before it lets go of the mutation, so an app
    /// that resolves or cancels it at once may find it claimed; a resolution the server wins was
    /// then left to the next run, and with the queue paused the element kept showing the edit.
    /// A run claims only while it is the queue's task, so with none the claim is another call's.
    func claimWaitingForRun(_ sequence: Int) async -> Bool {
        while claim(sequence) != .claimed {
            guard held.withLock({ $0[sequence] != nil }), let current = run.withLock({ $0.task }) else { return false }
            await current.value
        }
        return true
    }
}
