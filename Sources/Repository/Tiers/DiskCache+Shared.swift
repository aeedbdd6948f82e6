/// What every element store and outbox over one connection shares for an element type, made
/// by the first that asks: the stores' listeners and versions (so a save through one store
/// reaches the readers over every store of the type), and the outboxes' claims on the pending
/// mutations (so each is sent once). Connections to one file in other processes, or other
/// connections in this one, share nothing; they see each other's writes in the file.
extension DiskCache {
    /// The value shared under `key`, made with `make` by the first caller. `nil` when the value
    /// under `key` is of another type (two types whose names are the same).
    nonisolated func shared<Value: Sendable>(_ key: String, _ make: () -> Value) -> Value? {
        sharedParts.withLock { parts in
            if let value = parts[key] { return value as? Value }
            let value = make()
            parts[key] = value
            return value
        }
    }

    /// The claims every outbox over this connection makes on the pending mutations of `type`.
    nonisolated func mutationClaims(for type: String) -> MutationClaims {
        shared("mutation claims \(type)", MutationClaims.init) ?? MutationClaims()
    }
}
