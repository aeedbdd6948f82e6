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

    /// Creates a loader over `repository`.
    public init(repository: Repository<SellerContacts>, lifetimeTrigger: LifetimeTrigger? = nil) {
        self.repository = repository
        super.init(lifetimeTrigger: lifetimeTrigger)
    }

    /// Observes the store and syncs.
    public override func producer(for input: Void) -> ContentProducer<[SellerContacts]> {
        .events(repository.events())
    }
}
