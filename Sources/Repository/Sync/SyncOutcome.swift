/// What a sync did.
public enum SyncOutcome: Sendable, Hashable {
    /// The remote data differed from the stored data and was written, in one transaction.
    case updated
    /// The remote data equalled the stored data (nothing was written; its age starts again), or
    /// a write made while the fetch ran kept its own value.
    case notModified
    /// The stored data was fresh enough (see ``FreshnessPolicy``): nothing was fetched.
    case skipped
}
