/// The pending mutations in the chains the queue sends side by side: each chain one mutation
/// at a time, in the order performed. Two mutations are in one chain when they edit the same
/// element or share a ``Mutation/scope`` (also through others: an element's mutation in scope
/// "a" ties every mutation of that element to every one in "a").
enum MutationChains {
    /// `pending` (in the order performed) cut into chains, each in the order performed;
    /// `scope` gives a mutation's scope (`nil`: its element's alone).
    static func chains(
        _ pending: [DiskCache.StoredMutation], scope: (DiskCache.StoredMutation) -> String?
    ) -> [[DiskCache.StoredMutation]] {
        var chains: [[DiskCache.StoredMutation]] = []
        // NB: the chain each element and scope is in; a chain merged into another is left empty.
        var chainOf: [String: Int] = [:]
        for mutation in pending {
            let keys = ["element \(mutation.elementID)"] + (scope(mutation).map { ["scope \($0)"] } ?? [])
            let found = Set(keys.compactMap { chainOf[$0] }).sorted()
            guard let index = found.first else {
                chainOf.merge(keys.map { ($0, chains.count) }) { $1 }
                chains.append([mutation])
                continue
            }
            for other in found.dropFirst() {
                chains[index] = (chains[index] + chains[other]).sorted { $0.sequence < $1.sequence }
                chains[other] = []
                for (key, chain) in chainOf where chain == other { chainOf[key] = index }
            }
            chains[index].append(mutation)
            for key in keys { chainOf[key] = index }
        }
        return chains.filter { !$0.isEmpty }
    }
}
