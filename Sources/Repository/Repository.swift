import ContentLoading

/// The single-source-of-truth flow: values come only from the store; a sync writes into the
/// store and reports its errors as events in the same stream.
///
/// ```swift
/// let repository = Repository(synchronizer: synchronizer)
/// for await event in repository.events() {
///     switch event {
///     case .value(let contacts): show(contacts)      // stored at once, updated after the sync
///     case .error(let error): showBanner(error)       // the sync failed; values keep coming
///     }
/// }
/// ```
///
/// A read is a read of the ``KeyedRepository`` behind the ``Synchronizer`` (its one key is the
/// store's collection): the stored elements first, then every write of the collection (a
/// sync's, or one made to the store directly). When `syncing`, the read's cache policy is
/// ``CachePolicy/returnCacheElseLoad`` with the freshness policy's ages, so a sync starts
/// unless the stored data is fresh; it is the same single-flight sync as
/// ``Synchronizer/sync()``.
///
/// A `ContentLoadingViewModel` uses it as its producer with
/// `ContentProducer.events(repository.events())`.
public struct Repository<Element: Sendable & Identifiable & Equatable>: Sendable where Element.ID: Sendable {
    /// Writes remote data into the store.
    public let synchronizer: Synchronizer<Element>

    /// Creates a repository over `synchronizer` and its store.
    public init(synchronizer: Synchronizer<Element>) {
        self.synchronizer = synchronizer
    }

    /// The store the values come from.
    public var store: any LocalStore<Element> { synchronizer.store }

    /// A stream of the stored elements (at once, then after every change) and of sync errors.
    ///
    /// The stored elements come first; then, when `syncing` is `true` and the freshness policy
    /// says the data is not fresh, a sync starts. A sync error, or a failure to read the store,
    /// arrives as an `.error` event and the stream goes on. A list equal to the last one given
    /// is not given again. Cancelling the iterating task ends it.
    public func events(syncing: Bool = true) -> AsyncStream<ContentEvent<[Element]>> {
        let (stream, continuation) = AsyncStream<ContentEvent<[Element]>>.makeStream(bufferingPolicy: .unbounded)
        let (keyed, store) = (synchronizer.keyed, store)
        let key = WholeCollection()
        let policy: CachePolicy = syncing ? .returnCacheElseLoad : .returnCacheDontLoad
        let task = Task {
            // NB: a write made to the store directly (not through a sync) reaches the readers
            // as a write of the key; this repository's own writes are told apart and skipped.
            // The store is observed before the read looks it up, so its first element (what the
            // store held then) is in what the read delivers, and only later ones are changes.
            let observed = try? await store.observe()
            let reads = keyed.events(for: key, policy: policy)
            let changes = Task {
                guard var changes = observed?.makeAsyncIterator(), await changes.next() != nil else { return }
                while let elements = await changes.next() { await keyed.adoptStoreChange(elements, for: key) }
            }
            var last: [Element]?
            for await event in reads {
                switch event {
                case .value(let cached):
                    guard cached.value != last else { continue }
                    last = cached.value
                    continuation.yield(.value(cached.value))
                case .error(let error): continuation.yield(.error(error))
                case .noValue: continue
                }
            }
            changes.cancel()
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
