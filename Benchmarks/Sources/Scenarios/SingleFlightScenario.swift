import ContentLoadingRepository
import SellerContacts

/// Scenario 6: 1,000 concurrent syncs of one store. Returns how many remote fetches happened
/// (the target is exactly one).
public enum SingleFlightScenario {
    /// Runs `callers` syncs at once; returns how many remote fetches they made.
    public static func run(callers: Int = 1_000) async throws -> Int {
        let fetches = Counter()
        let gate = AsyncStream<Void>.makeStream()
        let store = InMemoryStore<SellerContacts>(sortedBy: { $0.order < $1.order })
        let synchronizer = Synchronizer(store: store) {
            fetches.increment()
            for await _ in gate.stream { break }  // NB: holds the fetch until every caller has called.
            return SQLiteScenario.contacts(10)
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<callers { group.addTask { try await synchronizer.sync() } }
            while synchronizer.waitingCallers < callers { await Task.yield() }
            gate.continuation.yield()
            try await group.waitForAll()
        }
        return fetches.value
    }
}
