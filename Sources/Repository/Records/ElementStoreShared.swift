import ContentLoadingSupport

/// What every ``ElementStore`` of one element type over one ``DiskCache`` shares: the readers
/// of its changes and the versions that order them, and what runs when a fetch over it
/// succeeds. Two stores made over one connection (two features that each make their own) are
/// then one store to their readers: a save through either reaches every list, detail and
/// paging model over both, and an outbox over either hears a fetch that succeeded through
/// the other.
final class ElementStoreShared<Element: Identifiable & Codable & Sendable>: Sendable where Element.ID: CacheKey {
    /// The newest version of each element among the changes being shared.
    let versions = ElementVersions<Element.ID>()
    /// The listeners, in the order they were added (each change reaches them in that order).
    let listeners = ListenerList<ElementStore<Element>.Listener>()
    /// The listeners on the main actor (paging models), in the order they were added: each
    /// change reaches them after the others, in one step on the main actor.
    let mainActorListeners = ListenerList<ElementStore<Element>.MainActorListener>()
    /// What runs when a request of a repository or paging list over a store succeeds. Each
    /// returns `false` when its outbox is gone (then it is dropped).
    let requestActions = ListenerList<@Sendable () -> Bool>()
    /// When stored pages were last confirmed by their source.
    let pageConfirmations = PageConfirmations()
}
