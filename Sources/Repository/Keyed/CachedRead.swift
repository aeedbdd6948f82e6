import ContentLoading

/// What one read of a ``CachedContentLoader`` has shown, and what each of its steps asks of the
/// model: pure, so the rules are tested without a model or a task.
///
/// - A value a fetch found unchanged (a 304) is the one shown: not sent again.
/// - A removal (``CacheEvent/noValue``) drops what was shown: `empty`; the read goes on.
/// - A network-first read's first failure is followed by what the tiers hold: a cached value is
///   shown with the error beside it (`error(_, previous:)`), never a blank error first; with
///   nothing cached, the error stays.
struct CachedRead<Value: Sendable> {
    enum Action {
        case send(ContentEvent<Value>)
        case clear
        case showLoading
        case caughtUp
        case refreshing(Bool)
    }

    private var shown = false
    private var failed = false
    private let isNetworkFirst: Bool
    /// Whether the fetch's failure will be followed by the tiers' answer (a
    /// ``CachePolicy/loadElseReturnCache`` read that fetches and has shown nothing), and that
    /// failure. An error before the fetch (an unreadable entry) is shown at once.
    private var awaitsFallback = false
    private var heldError: (any Error)?

    init(policy: CachePolicy) { isNetworkFirst = policy == .loadElseReturnCache }

    /// What `step` asks of the model, in order.
    mutating func actions(for step: ReadStep<Value>) -> [Action] {
        switch step {
        case .fetchingWithoutValue:
            if isNetworkFirst && !shown { awaitsFallback = true }
            return [.showLoading]
        case .revalidating:
            return shown ? [.refreshing(true)] : []
        case .caughtUp:
            return [.refreshing(false), .caughtUp]
        case .event(.value(let cached)):
            // NB: `isRefreshing` changes before the value it goes with reaches the state.
            var actions: [Action] = [.refreshing(cached.isRefreshing)]
            if cached.isUnchanged && shown { return actions }
            (shown, failed, awaitsFallback) = (true, false, false)
            actions.append(.send(.value(cached.value)))
            if let error = heldError.take() {
                failed = true
                actions.append(.send(.error(error)))
            }
            return actions
        case .event(.error(let error)):
            failed = true
            guard !awaitsFallback || shown else {
                heldError = error
                return [.refreshing(false)]
            }
            return [.refreshing(false), .send(.error(error))]
        case .event(.noValue):
            if let error = heldError.take() {
                awaitsFallback = false
                return [.refreshing(false), .send(.error(error))]
            }
            // NB: a failed fetch with nothing cached keeps its error.
            defer { shown = false }
            return shown || !failed ? [.refreshing(false), .clear] : [.refreshing(false)]
        }
    }
}
