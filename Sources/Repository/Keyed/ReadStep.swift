/// One step of a keyed read, as ``CachedContentLoader`` follows it: an event of the read, or
/// word that the read found nothing to show and fetches (the model shows `loading` then).
enum ReadStep<Value: Sendable>: Sendable {
    /// An event of the read.
    case event(CacheEvent<Value>)
    /// Nothing was shown and a fetch is on the way.
    case fetchingWithoutValue
    /// A fetch the read did not announce with a value is on the way (an invalidation's): what
    /// it shows stays until the fetch delivers or ``caughtUp`` says it ended unchanged.
    case revalidating
    /// The read has no fetch on the way: what it fetched (if anything) is stored and was given.
    case caughtUp
}
