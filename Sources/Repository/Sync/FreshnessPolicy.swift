/// Whether a sync goes to the network at all.
public enum FreshnessPolicy: Sendable, Hashable {
    /// Every sync fetches.
    case always
    /// A sync fetches only when the last successful sync is older than this (or there was none).
    case ifOlderThan(Duration)
}

/// What a sync did.
public enum SyncOutcome: Sendable, Hashable {
    /// The remote data differed from the stored data and was written, in one transaction.
    case updated
    /// The remote data equalled the stored data: nothing was written.
    case notModified
    /// The freshness policy said the stored data is fresh enough: nothing was fetched.
    case skipped
}
