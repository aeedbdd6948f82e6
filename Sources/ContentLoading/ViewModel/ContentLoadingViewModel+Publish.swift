import ContentLoadingSupport
import Observation

extension ContentLoadingViewModel {
    /// Publishes what the last events changed: the outlets (state, settled refreshes, load
    /// task), Observation, `stateDidChange`, the streams.
    ///
    /// A handle awaited on the main actor is released first: it goes on only after this job,
    /// so it still finds the rest done (see `LoaderOutlets.Settlement`); the other handles are
    /// resumed last.
    @inlinable func publish() {
        let changes = machine.takeChanges()
        let lastSettled = machine.lastSettled
        let lastCompleted = machine.lastCompleted
        let waitersMove = lastSettled != publishedSettlement || lastCompleted != publishedCompletion
        guard waitersMove || !changes.isEmpty || !taskChange.isKeep else { return }
        publishedSettlement = lastSettled
        publishedCompletion = lastCompleted
        let newState = machine.state
        let settlement = outlets.commit(
            newState, lastSettled: lastSettled, lastCompleted: lastCompleted, task: taskChange.take())
        settlement.start()
        if changes.contains(.state) {
            let oldState = storedState
            if changes.contains(.content) { previousContent = oldState.content }
            observationRegistrar.withMutation(of: self, keyPath: stateKeyPath) { storedState = newState }
            if changes.contains(.error) || (storedLastError != nil && machine.lastError == nil) {
                let error = machine.lastError
                observationRegistrar.withMutation(of: self, keyPath: lastErrorKeyPath) {
                    storedLastError = error
                }
            }
            stateDidChange(from: oldState, to: newState)
            if hasStreams { outlets.states.send(newState) }
        }
        if hasStreams {
            if changes.contains(.content) { outlets.contents.send(newState.content) }
            if changes.contains(.error), let error = machine.lastError { outlets.errors.send(error) }
        }
        settlement.finish()
    }
}
