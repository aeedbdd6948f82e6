extension ContentLoadingViewModel {
    /// Calls `observer` with each state the model moves to from now on, as it moves: on the
    /// main actor, before its streams get the state and before a refresh awaited there goes
    /// on. `StateRecorder` records a model's states this way, so what it holds is whole when
    /// the test's `await model.refresh().completed()` returns (its stream of states goes
    /// through the main queue twice a state, and came after the test). Returns what stops it.
    package func observeStates(
        _ observer: @escaping @MainActor (ContentLoadingState<Output>) -> Void
    ) -> @Sendable () -> Void {
        hasStreams = true
        return outlets.states.observe { state in MainActor.assumeIsolated { observer(state) } }
    }
}
