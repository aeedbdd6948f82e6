/// Whether a sync goes to the network at all.
public enum FreshnessPolicy: Sendable, Hashable {
    /// Every sync fetches.
    case always
    /// A sync fetches only when the last successful sync is older than this (or there was none).
    case ifOlderThan(Duration)

    /// The cache ages that say the same: stale after the maximum age (at once for
    /// ``always``), and never expired: the single source of truth keeps its data until a sync
    /// replaces it.
    var ages: CacheAges {
        let never = Duration.seconds(Int64.max / 2)
        return switch self {
        case .always: CacheAges(staleAfter: .zero, expireAfter: never)
        case .ifOlderThan(let maximumAge): CacheAges(staleAfter: maximumAge, expireAfter: never)
        }
    }
}
