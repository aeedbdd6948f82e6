/// The values one load produces: one value, or a sequence of them.
///
/// A ``ContentLoadingViewModel`` asks its ``ContentLoadingViewModel/producer(for:)`` for one
/// producer per refresh and runs it off the main actor. Each value re-enters the state
/// machine (`success` or `empty`); a thrown error ends the load in `error`.
///
/// ```swift
/// override func producer(for input: Void) -> ContentProducer<[Contact]> {
///     .values(repository.observeContacts())   // yields stored contacts, then every change
/// }
/// ```
public struct ContentProducer<Output: Sendable>: Sendable {
    @usableFromInline enum Body: Sendable {
        case single(SingleValueLoad<Output>)
        case reporting(@Sendable (LoadReporter<Output>) async throws -> Void)
    }

    @usableFromInline let body: Body

    /// Creates a producer from a function that hands its values to `yield`, in order.
    public init(_ run: @escaping @Sendable (_ yield: @Sendable (Output) async -> Void) async throws -> Void) {
        body = .reporting { load in try await run { await load.send(.value($0)) } }
    }

    /// A producer of the one value `operation` returns.
    ///
    /// The value and the end of the load reach the state machine together, so the loader is
    /// never seen settled-but-still-running.
    @inlinable public static func load(_ operation: @escaping @Sendable () async throws -> Output) -> Self {
        Self(body: .single(.closure(operation)))
    }

    /// A producer of every element of `sequence`; an error thrown by the sequence ends the load.
    public static func values<S: AsyncSequence & Sendable>(_ sequence: S) -> Self where S.Element == Output {
        Self { yield in
            for try await value in sequence { await yield(value) }
        }
    }

    /// A producer of the events of `sequence`: each value re-enters the state machine, and
    /// each error moves it to ``ContentLoadingState/error(_:previous:)`` *without* ending the
    /// load, so later values still arrive. A thrown error does end the load.
    ///
    /// This is how a single-source-of-truth screen keeps showing store updates after a sync
    /// error.
    public static func events<S: AsyncSequence & Sendable>(_ sequence: S) -> Self
    where S.Element == ContentEvent<Output> {
        Self(
            body: .reporting { load in
                for try await event in sequence { await load.send(event) }
            })
    }

    /// A producer that first looks somewhere fast (a cache) and calls `showLoading` only when
    /// it found nothing there and goes on to a slow load: `run` hands events to `send`, in
    /// order. In a model whose ``ContentLoadingViewModel/defersLoading`` is `true`, a first load
    /// stays `unloaded` until then, so a cache hit is the first state shown, with no blank
    /// `loading` before it.
    ///
    /// ```swift
    /// .deferringLoading { send, showLoading in
    ///     if let cached = await cache.value(for: key) { await send(.value(cached)) } else { await showLoading() }
    ///     await send(.value(try await api.contacts(seller: key)))
    /// }
    /// ```
    public static func deferringLoading(
        _ run:
            @escaping @Sendable (
                _ send: @Sendable (ContentEvent<Output>) async -> Void, _ showLoading: @Sendable () async -> Void
            ) async throws -> Void
    ) -> Self {
        Self(body: .reporting { load in try await run(load.send, load.showLoading) })
    }

    /// A producer that reports through a ``LoadReporter``: its values and errors, that it found
    /// nothing to show at once (``LoadReporter/showLoading()``), and that it caught up with what
    /// the refresh asked for (``LoadReporter/caughtUp()``) while it goes on delivering later
    /// changes, which completes the refresh (``RefreshHandle/completed(isolation:)``).
    ///
    /// ```swift
    /// .reporting { load in
    ///     for await step in repository.revalidate(key) {
    ///         await load.send(.value(step.value))
    ///         if !step.isRefreshing { await load.caughtUp() }   // fetched, stored and shown
    ///     }
    /// }
    /// ```
    public static func reporting(_ run: @escaping @Sendable (LoadReporter<Output>) async throws -> Void) -> Self {
        Self(body: .reporting(run))
    }

    @usableFromInline init(body: Body) { self.body = body }
}
