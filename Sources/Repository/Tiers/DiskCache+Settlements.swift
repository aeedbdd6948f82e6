import ContentLoading
import Foundation

/// Settling the outbox's mutations (see `DiskCache+Outbox.swift`): the server's answers, each
/// changing its element's kept server value and taking its mutation out of the outbox, in one
/// transaction for the answers that arrive together.
extension DiskCache {
    /// How settling a mutation changes its element's kept server value.
    enum ServerValueChange: Sendable {
        /// It stays.
        case unchanged
        /// The server's answer: its value (`nil`: the value stays) and entity tag.
        case answer(Data?, entityTag: String?)
        /// The server said "done" without the value: the mutation applied to the kept value.
        case mutationApplied(entityTag: String?)
        /// The server's value a refusal (a conflict) came with (`nil`: the value stays), taken
        /// while the kept value is still the one the mutation was sent over, with its entity
        /// tag; a value fetched or saved since is newer, and it stays (also the same value with
        /// another entity tag: the server's copy changed and changed back).
        case refusal(Data?, entityTag: String?, sentOver: ElementBase?)
    }

    /// One mutation to settle, in one transaction with others (``settleMutations(_:writtenAt:)``):
    /// its element's kept server value changes as `change` says, the mutation leaves the outbox,
    /// and the element row shows the server value with the mutations still pending applied, or
    /// the server value alone when none is (then the kept server value goes).
    ///
    /// `sentOver`, when given, is the kept server value the mutation was sent over and the value
    /// it was sent as: when the server's answer is that value and the server value kept is still
    /// the one it was sent over, the element's row already shows the answer with the mutations
    /// still pending applied, and it is not written again.
    struct Settlement: Sendable {
        let mutation: StoredMutation
        let change: ServerValueChange
        var sentOver: (base: Data, edited: Data)?
    }

    /// Settles `settlements` in one transaction at one version, each as
    /// ``Settlement`` says, in order: the answers that arrive
    /// together cost one commit.
    ///
    /// - Returns: The version, and each element's shown value (`nil`: not stored, or its row
    ///   did not change) and whether it still has pending mutations, in the order of
    ///   `settlements`.
    func settleMutations(_ settlements: [Settlement], writtenAt: Date) async throws
        -> (version: UInt64, elements: [(shown: Data?, isPending: Bool)])
    {
        for settlement in settlements {
            try await writeFault?("\(settlement.mutation.elementType)|\(settlement.mutation.elementID)")
        }
        let settled = try await writeTransaction(operation: "write the outbox in") {
            let version = try advanceVersion()
            let elements = try settlements.map { settlement in
                try settle(settlement, version: version, writtenAt: writtenAt)
            }
            return (version, elements)
        }
        forgetSentRequests(of: settlements.map(\.mutation.sequence))
        return settled
    }

    /// Settles one mutation inside a transaction, at `version`.
    private func settle(_ settlement: Settlement, version: UInt64, writtenAt: Date) throws
        -> (shown: Data?, isPending: Bool)
    {
        let (mutation, change) = (settlement.mutation, settlement.change)
        let (type, id) = (mutation.elementType, mutation.elementID)
        // NB: a mutation no longer in the outbox was settled through another connection to the
        // file (its outbox sent it too, with the same key): this answer is that one again, or
        // older than what came since, and changes nothing.
        guard try isInOutbox(mutation.sequence) else { return (nil, try hasPendingMutations(type: type, id: id)) }
        var base = try keptBase(type: type, id: id)
        let held = base.value
        switch change {
        case .unchanged: break
        case .answer(let value, let entityTag): base = ElementBase(value: value ?? base.value, entityTag: entityTag)
        case .mutationApplied(let entityTag):
            // NB: a value fetched since the request went that is the value it sent holds the
            // mutation already.
            let value = try base.value.map { value in
                holds(mutation, value) ? value : try overlay(for: type).map { try $0(value, [mutation]) } ?? value
            }
            base = ElementBase(value: value, entityTag: entityTag ?? base.entityTag)
        case .refusal(let value, let entityTag, let sentOver):
            if held == sentOver?.value, sentOver.map({ $0.entityTag == base.entityTag }) ?? true {
                base = ElementBase(value: value ?? base.value, entityTag: entityTag)
            }
        }
        try writeBase(base, type: type, id: id)
        let delete = try database.prepare(
            "DELETE FROM content_loading_outbox WHERE sequence = ?", operation: "write the outbox in")
        try delete.bind(mutation.sequence, at: 1)
        try delete.step()
        // NB: the row is the kept value with the pending mutations applied, this one first: the
        // same as the answer with the rest applied. Its entity tag follows when none is pending.
        if let sent = settlement.sentOver, held == sent.base, base.value == sent.edited,
            try hasPendingMutations(type: type, id: id)
        {
            return (nil, true)
        }
        let shown = try showPending(type: type, id: id, base: base, version: version, writtenAt: writtenAt)
        return (shown, pendingElements.contains(Self.pendingKey(type, id)))
    }

    /// Whether the mutation with `sequence` is still in the outbox.
    private func isInOutbox(_ sequence: Int) throws -> Bool {
        let select = try database.prepare(
            "SELECT 1 FROM content_loading_outbox WHERE sequence = ?", operation: "read the outbox in")
        try select.bind(sequence, at: 1)
        return try select.step()
    }

    /// Whether element `id` of `type` has a pending mutation (not set aside).
    private func hasPendingMutations(type: String, id: String) throws -> Bool {
        let select = try database.prepare(
            """
            SELECT 1 FROM content_loading_outbox WHERE element_type = ? AND element_id = ? AND set_aside IS NULL LIMIT 1
            """, operation: "read the outbox in")
        try select.bind(type, at: 1)
        try select.bind(id, at: 2)
        return try select.step()
    }
}
