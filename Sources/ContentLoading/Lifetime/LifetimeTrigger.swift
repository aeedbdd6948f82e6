/// When a ``ContentLoadingViewModel`` refreshes or cancels on its view's lifetime events.
///
/// ```swift
/// // Refresh on every appearance unless the content is under five minutes old,
/// // and stop loading when the view goes away.
/// let trigger = LifetimeTrigger(
///     refreshOn: .willAppear,
///     unlessYoungerThan: .seconds(300),
///     cancelOn: .didDisappear
/// )
/// let model = ContactsModel(lifetimeTrigger: trigger)
/// ```
///
/// A lifetime refresh uses the most recent input (see ``ContentLoadingViewModel``). It does
/// nothing while a load is already running: that load brings fresh content anyway.
///
/// A load is running, to both events, until it has settled (shown a value, failed or ended),
/// including a first load that shows nothing while it looks in a cache (a model that
/// ``ContentLoadingViewModel/defersLoading``), and while a cached loader revalidates the value
/// it shows (`CachedContentLoader.isRefreshing`): the cancel event stops that fetch too, and
/// the content stays. A load that has settled and goes on observing its source is not
/// running: the cancel event leaves it, and the refresh event refreshes it.
public struct LifetimeTrigger: Sendable, Hashable {
    /// The event that starts a refresh.
    public var refreshOn: ViewLifetime
    /// When set, a refresh starts only when the content is at least this old (the content's age
    /// is the time since a load last produced a value, on the model's clock). Content that
    /// was never loaded, or only failed, is always old enough.
    public var minimumContentAge: Duration?
    /// The event that cancels a running load, if any.
    public var cancelOn: ViewLifetime?

    /// Creates a trigger.
    ///
    /// - Parameters:
    ///   - refreshOn: The event that starts a refresh.
    ///   - unlessYoungerThan: Skip the refresh while the content is younger than this.
    ///   - cancelOn: The event that cancels a running load.
    public init(refreshOn: ViewLifetime, unlessYoungerThan: Duration? = nil, cancelOn: ViewLifetime? = nil) {
        self.refreshOn = refreshOn
        self.minimumContentAge = unlessYoungerThan
        self.cancelOn = cancelOn
    }

    /// Refresh on every `willAppear`, cancel on `didDisappear`.
    public static let everyAppearance = LifetimeTrigger(refreshOn: .willAppear, cancelOn: .didDisappear)

    /// What a model does on a lifetime event.
    public enum Decision: Sendable, Hashable {
        /// Refresh with the most recent input.
        case refresh
        /// Cancel the running load.
        case cancel
        /// Nothing.
        case none
    }

    /// Decides what to do on `event`.
    ///
    /// - Parameters:
    ///   - event: The lifetime event that arrived.
    ///   - contentAge: Time since a load last produced a value; `nil` when none has.
    ///   - isLoading: Whether a load is running (one that has not settled, or a revalidation
    ///     of what the model shows).
    public func decision(for event: ViewLifetime, contentAge: Duration?, isLoading: Bool) -> Decision {
        if event == cancelOn { return isLoading ? .cancel : .none }
        guard event == refreshOn, !isLoading else { return .none }
        if let minimumContentAge, let contentAge, contentAge < minimumContentAge { return .none }
        return .refresh
    }
}
