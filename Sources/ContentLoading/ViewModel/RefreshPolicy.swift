/// What a loader does with a refresh that arrives while a load is already running.
///
/// ```swift
/// let search = SearchModel(refreshPolicy: .latestWins)      // type-ahead: newest query wins
/// let feed = FeedModel(refreshPolicy: .joinInFlight)        // pull-to-refresh: one request at a time
/// let saver = DraftSaver(refreshPolicy: .enqueueLatest)     // every save runs, newest last
/// ```
public enum RefreshPolicy: Sendable, Hashable {
    /// Cancel the running load and start the new one. The result of the cancelled load
    /// never reaches the state, whatever order the loads finish in. The default.
    case latestWins
    /// Ignore the new refresh; its handle waits for the running load to settle.
    ///
    /// A load that goes on after it caught up with its refresh (``LoadReporter/caughtUp()``:
    /// a cached loader's read, observing its key) is not joined once it has: the new refresh
    /// replaces it, as with ``latestWins``.
    case joinInFlight
    /// Run the new refresh after the running load finishes. Only the newest queued input
    /// is kept: a later refresh replaces an earlier queued one.
    ///
    /// A load that goes on after it caught up with its refresh (``LoadReporter/caughtUp()``)
    /// counts as finished from then: a queued refresh starts when it catches up, and a refresh
    /// made after that starts at once, replacing it.
    ///
    /// - Important: A multi-value producer that never finishes and never catches up (a store
    ///   observation made with ``ContentProducer/values(_:)``) never lets a queued refresh run;
    ///   use ``latestWins`` for such loaders.
    case enqueueLatest
}
