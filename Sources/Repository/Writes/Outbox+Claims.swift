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

    /// Claims mutation `sequence`; while the app was just told of it (a conflict held for it,
    /// or ``OutboxEvent/willRetry(_:_:)``) and the call that told it still has it, waits for
    /// that call to let go first. `false` when it stays claimed (it is being sent, or a cancel
    /// or a resolution has it) or is no longer pending.
    ///
    /// NB: a run tells the app before it lets go of the mutation, so an app that resolves or
    /// cancels it at once may find it claimed: a resolution the server wins was then left to
    /// the next run (with the queue paused the element kept showing the edit), and a cancel
    /// said the mutation was being sent.
    func claimWaitingForLetGo(_ sequence: Int) async -> Bool {
        while true {
            switch claim(sequence) {
            case .claimed:
                failedForNow.withLock { _ = $0.remove(sequence) }
                return true
            case .retired: return false
            case .taken:
                let told = held.withLock { $0[sequence] != nil } || failedForNow.withLock { $0.contains(sequence) }
                // NB: not claimed, it is held by another outbox: that one's app decides.
                guard told, await claims.letGo(sequence) else { return false }
            }
        }
    }
}
