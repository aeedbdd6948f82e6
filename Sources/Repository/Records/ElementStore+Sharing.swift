import Foundation

/// How a change of the store's elements reaches the repositories and paging models over it:
/// the listeners off the main actor hear it first, in the order they were added, then those on
/// the main actor, in one step there (no hop when the write was called there).
extension ElementStore {
    /// Adds `listener`, which hears every save and removal made through the store.
    func listen(_ listener: @escaping Listener) { listeners.add(listener) }

    /// Adds `listener`, which hears every save and removal made through the store on the main
    /// actor, after the other listeners.
    func listenOnMainActor(_ listener: @escaping MainActorListener) { mainActorListeners.add(listener) }

    /// Hands `change` to every listener, in turn (in the order they were added: those off the
    /// main actor first, then those on it, in one step there), and drops those whose repository
    /// or model is gone.
    /// Runs inside `versions.sharing` with the write that made the change: a receiver that
    /// hears it after a newer change of one of its elements leaves that element out.
    func share(_ change: ElementChange<Element>) async {
        await shareOnMainActorIfHeard(await shareOffMainActor(change))
    }

    /// Hands `change` to the listeners on the main actor, when there are any: a hop onto it
    /// only when someone there listens, and none when the caller is on it.
    nonisolated(nonsending) func shareOnMainActorIfHeard(_ change: ElementChange<Element>) async {
        guard !mainActorListeners.isEmpty else { return }
        await shareOnMainActor(change)
    }

    /// Hands `change` to the listeners that are not on the main actor (see ``share(_:)``);
    /// returns it as they heard it.
    @concurrent func shareOffMainActor(_ change: ElementChange<Element>) async -> ElementChange<Element> {
        var change = change
        change.versions = versions
        versions.note(change.ids, version: change.version, placedIn: change.placedIn)
        if change.removesAll { versions.noteRemovalOfAll(version: change.version) }
        for (number, listener) in listeners.current where !(await listener(change)) { listeners.remove(number) }
        return change
    }

    /// Hands `change` to the listeners on the main actor (see ``share(_:)``).
    @MainActor private func shareOnMainActor(_ change: ElementChange<Element>) {
        for (number, listener) in mainActorListeners.current where !listener(change) {
            mainActorListeners.remove(number)
        }
    }
}
