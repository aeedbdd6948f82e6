import ContentLoading

/// Loads the seller's contacts, sorted by ``SellerContacts/order``; `empty` when there are none.
///
/// ```swift
/// let loader = SellerContactsLoader(apiManager: SellerContactsAPIManager(urlStore: BundledSellerContactsURLStore()))
/// let state = await loader.refresh().settled()   // .success([…]) sorted by order
/// ```
public final class SellerContactsLoader: ContentLoadingViewModel<Void, [SellerContacts]> {
    /// Where the contacts come from.
    public let apiManager: SellerContactsAPIManager

    /// Creates a loader.
    ///
    /// - Parameters:
    ///   - apiManager: Where the contacts come from.
    ///   - lifetimeTrigger: When view lifetime events refresh; `nil` for never.
    ///   - retry: How a failed load is tried again. Defaults to `RetryPolicy.never`.
    public init(
        apiManager: SellerContactsAPIManager, lifetimeTrigger: LifetimeTrigger? = nil, retry: RetryPolicy = .never
    ) {
        self.apiManager = apiManager
        // NB: a load function, not an override: it runs off the main actor as the compiler
        // checks, and releasing the loader cancels a load in flight.
        super.init(lifetimeTrigger: lifetimeTrigger, retry: retry) { _ in
            // Fetches the contacts and sorts them by `order` (stable for equal orders).
            try await apiManager.sellerContacts().sortedByOrder()
        }
    }
}

extension [SellerContacts] {
    /// The contacts sorted by `order`, lowest first, keeping the source order for ties.
    public func sortedByOrder() -> [SellerContacts] {
        enumerated().sorted { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }.map(\.element)
    }
}
