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
/// A ``ContentLoadingViewModel`` uses it as its producer with
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
    /// The stored elements come first; then, when `syncing` is `true`, a sync starts. A sync
    /// error arrives as an `.error`
    /// event and the stream goes on; a failure to read the store arrives as an `.error` event
    /// that ends the stream. Cancelling the iterating task ends it.
    public func events(syncing: Bool = true) -> AsyncStream<ContentEvent<[Element]>> {
        let (stream, continuation) = AsyncStream<ContentEvent<[Element]>>.makeStream(bufferingPolicy: .unbounded)
        let task = Task { [store, synchronizer] in
            let values: AsyncStream<[Element]>
            do {
                values = try await store.observe()
            } catch {
                continuation.yield(.error(error))
                continuation.finish()
                return
            }
            // NB: the stored values come first, then the sync starts: a screen shows what it has
            // before it can hear that the network failed.
            var iterator = values.makeAsyncIterator()
            if let stored = await iterator.next() { continuation.yield(.value(stored)) }
            let sync: Task<Void, Never>? =
                syncing
                ? Task {
                    do { try await synchronizer.sync() } catch is CancellationError {} catch {
                        continuation.yield(.error(error))
                    }
                } : nil
            while let elements = await iterator.next() { continuation.yield(.value(elements)) }
            sync?.cancel()
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
