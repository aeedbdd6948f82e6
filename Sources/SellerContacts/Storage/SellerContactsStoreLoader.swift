import ContentLoading
import ContentLoadingRepository

/// Shows the seller's contacts from the local store: stored ones at once, updated ones after
/// the sync, and an error (with the contacts still shown) when the sync fails.
///
/// Its producer is the repository's event stream, so the load stays open: later store changes
/// keep arriving after a sync error.
public final class SellerContactsStoreLoader: ContentLoadingViewModel<Void, [SellerContacts]> {
    /// Where the contacts come from.
    public let repository: Repository<SellerContacts>

    /// Whether a refresh starts a sync; when `false` the loader only shows the store.
    public let syncsOnRefresh: Bool

    /// Creates a loader over `repository`.
    ///
    /// - Parameters:
    ///   - repository: The store and its synchronizer.
    ///   - syncsOnRefresh: Whether a refresh starts a sync. Defaults to `true`.
    ///   - lifetimeTrigger: When view lifetime events refresh; `nil` for never.
    public init(
        repository: Repository<SellerContacts>, syncsOnRefresh: Bool = true, lifetimeTrigger: LifetimeTrigger? = nil
    ) {
        self.repository = repository
        self.syncsOnRefresh = syncsOnRefresh
        super.init(lifetimeTrigger: lifetimeTrigger)
    }

    /// Observes the store and, when ``syncsOnRefresh``, syncs.
    public override func producer(for input: Void) -> ContentProducer<[SellerContacts]> {
        .events(repository.events(syncing: syncsOnRefresh))
    }
}
