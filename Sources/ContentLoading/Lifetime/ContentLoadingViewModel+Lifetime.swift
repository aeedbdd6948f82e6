extension ContentLoadingViewModel {
    /// The last lifetime event of the view that shows this model.
    ///
    /// Setting it tells the model of the event; a model created with a ``LifetimeTrigger``
    /// then refreshes or cancels as the trigger says. Setting the same event again counts as
    /// a new event (a view appears many times).
    public var viewLifetime: ViewLifetime? {
        get {
            observationRegistrar.access(self, keyPath: viewLifetimeKeyPath)
            return storedLifetimeEvent
        }
        set {
            observationRegistrar.withMutation(of: self, keyPath: viewLifetimeKeyPath) {
                storedLifetimeEvent = newValue
            }
            if let newValue { handleLifetimeEvent(newValue) }
        }
    }

    /// How long ago a load last produced a value, on the model's clock; `nil` if none has.
    public var contentAge: Duration? { contentTimer.map(stopwatch.elapsed(since:)) }

    private func handleLifetimeEvent(_ event: ViewLifetime) {
        guard let lifetimeTrigger else { return }
        // NB: not `storedState.isLoading`: a first load that defers `loading` is `unloaded`
        // while it reads its cache, and a cached loader's revalidation runs behind `success`.
        // A cancel event let both run on, and an appearance started a second read beside them.
        // A revalidation counts only while its load does: a cancelled read says it stopped
        // refreshing a hop later, and an appearance right after the cancel must refresh.
        let isLoading = machine.hasUnsettledLoad || (isRevalidating && machine.activeLoad != nil)
        switch lifetimeTrigger.decision(for: event, contentAge: contentAge, isLoading: isLoading) {
        case .refresh:
            if let input = machine.lastInput { refresh(input) }
        case .cancel:
            cancel()
        case .none:
            break
        }
    }
}
