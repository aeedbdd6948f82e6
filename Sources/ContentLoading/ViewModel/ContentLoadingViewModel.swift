import ContentLoadingSupport
import Observation

/// A main-actor view model that loads content and moves through a ``ContentLoadingState``.
///
/// Give it the function that loads one value per refresh
/// (``init(refreshPolicy:lifetimeTrigger:initialInput:clock:retry:load:)``), directly or from a
/// subclass's `init`; or subclass it and override ``load(_:)``, or ``producer(for:)`` for several
/// values per refresh (such as a store observation), and optionally ``isEmpty(_:)``. Bind the UI
/// to ``state`` or ``content``; call ``refresh(_:)`` to load.
///
/// ```swift
/// final class ContactsModel: ContentLoadingViewModel<Void, [Contact]> {
///     init(api: ContactsAPI) {
///         super.init(lifetimeTrigger: .everyAppearance) { _ in
///             try await api.contacts()        // @Sendable: runs off the main actor
///         }
///     }
/// }
///
/// let model = ContactsModel(api: api)
/// await model.refresh().settled()             // .success([…]), .empty or .error(…)
/// ```
///
/// The model keeps the rules in <doc:StateMachine>: the latest refresh wins, a cancellation
/// is never an error, the last good content stays readable through `loading` and `error`,
/// and every state change happens on the main actor, observable through Observation and
/// through the ``states``, ``contents`` and ``errors`` streams.
///
/// ## Input for lifetime refreshes
/// A refresh started by a ``LifetimeTrigger`` uses the input of the most recent refresh. Before
/// the first refresh it uses the `initialInput` given at init; when there is none, lifetime
/// events start nothing. When `Input` is `Void` the input is always known.
///
/// ## Lifetime of the model
/// Releasing the model cancels its running load and finishes its streams. Its load task
/// holds the model only weakly, so a model made with a load function
/// (``init(refreshPolicy:lifetimeTrigger:initialInput:clock:retry:load:)``, from a subclass too),
/// or whose ``producer(for:)`` captures what it needs rather than `self`, deinitialises even
/// while a load is in flight. An overridden ``load(_:)`` is a method call
/// on the model, and like every method call it keeps the model alive until it returns; its
/// result is then discarded.
@MainActor
open class ContentLoadingViewModel<Input: Sendable, Output: Sendable>: Observable {
    // NB: `Observable` by hand rather than with the macro. In a generic class the macro's
    // accessors build their key path at run time on every access, which profiling showed to
    // dominate a refresh; these use key paths built once per model. The kit's own code reads
    // the storage. The refresh path is `@inlinable` (with `@usableFromInline` storage) so an
    // app's model gets a copy specialised for its own types (removing it made a refresh cycle
    // 3.8× slower): see ContentLoadingStateMachine.
    @usableFromInline final let observationRegistrar = ObservationRegistrar()
    // NB: the storage the refresh path reads and writes has no run-time exclusivity check:
    // only the kit's own main-actor code touches it, each access is a plain read or a whole
    // assignment, and `machine`'s mutating methods call out to nothing, so no two accesses can
    // overlap. Together the checks cost 12% of a refresh cycle (`swift run -c release
    // --package-path Benchmarks ratio-report 1`: kit 1.39 ms with them, 1.24 ms without, per
    // 1,000 cycles; each alone 0–4%; Benchmarks/README.md, "Unchecked constructs"). `.ci/run`
    // runs the tests once with them checked (`-DCLK_CHECKED_EXCLUSIVITY`, the ASan run), so an
    // access that does overlap traps there.
    #if CLK_CHECKED_EXCLUSIVITY
        @usableFromInline final var storedState: ContentLoadingState<Output> = .unloaded
        @usableFromInline final var storedLastError: (any Error)?
        @usableFromInline final var machine: ContentLoadingStateMachine<Input, Output>
        @usableFromInline final var contentTimer: Stopwatch.Mark?
        @usableFromInline final var previousContent: Output?
        @usableFromInline final var publishedSettlement: LoadID?
        @usableFromInline final var taskChange: LoaderOutlets<Output>.TaskChange = .keep
        @usableFromInline final var hasStreams = false
    #else
        @exclusivity(unchecked) @usableFromInline final var storedState: ContentLoadingState<Output> = .unloaded
        @exclusivity(unchecked) @usableFromInline final var storedLastError: (any Error)?
        @exclusivity(unchecked) @usableFromInline final var machine: ContentLoadingStateMachine<Input, Output>
        /// When the content was last replaced, for its age.
        @exclusivity(unchecked) @usableFromInline final var contentTimer: Stopwatch.Mark?
        /// The content before its last replacement, for computing what changed.
        @exclusivity(unchecked) @usableFromInline final var previousContent: Output?
        /// The last settled load as last published, so that an event that changed nothing (the
        /// end of a load that settled with its value) publishes nothing.
        @exclusivity(unchecked) @usableFromInline final var publishedSettlement: LoadID?
        /// What the next publish does with the load task: every start and end of a load leaves
        /// its change here, and the publish that follows records it with the state, in one lock.
        @exclusivity(unchecked) @usableFromInline final var taskChange: LoaderOutlets<Output>.TaskChange = .keep
        /// Whether a stream (``states``, ``contents`` or ``errors``) was ever made: until then a
        /// change is sent to none, and publishing skips the streams.
        @exclusivity(unchecked) @usableFromInline final var hasStreams = false
    #endif
    var storedLifetimeEvent: ViewLifetime?
    /// Whether the running load, settled on what it shows, still fetches for it: a cached
    /// loader's revalidation (set by `CachedContentLoader`). A lifetime event counts it as a
    /// running load (see ``LifetimeTrigger``).
    package final var isRevalidating = false
    // NB: each key path is a `let` of its own: reading one from a struct of them retained and
    // released all three, several times in every publish.
    @usableFromInline final let stateKeyPath: KeyPath<ContentLoadingViewModel, ContentLoadingState<Output>> = \.state
    @usableFromInline final let lastErrorKeyPath: KeyPath<ContentLoadingViewModel, (any Error)?> = \.lastError
    final let viewLifetimeKeyPath: KeyPath<ContentLoadingViewModel, ViewLifetime?> = \.viewLifetime

    /// The current state.
    @inlinable public final var state: ContentLoadingState<Output> {
        observationRegistrar.access(self, keyPath: stateKeyPath)
        return storedState
    }

    /// The most recent error; kept while a new load runs, cleared when a load produces a value.
    @inlinable public final var lastError: (any Error)? {
        observationRegistrar.access(self, keyPath: lastErrorKeyPath)
        return storedLastError
    }

    /// The last completed load as last published (see `publishedSettlement`).
    @usableFromInline final var publishedCompletion: LoadID?
    @usableFromInline final let outlets = LoaderOutlets<Output>()
    let lifetimeTrigger: LifetimeTrigger?
    @usableFromInline final let stopwatch: Stopwatch
    private let operation: (@Sendable (Input) async throws -> Output)?
    /// Whether the model loads through a method of its own (an overridden ``load(_:)``), whose
    /// call keeps the model alive until it returns, rather than through an `init(load:)` function.
    package final var loadsThroughItself: Bool { operation == nil }
    private let retry: RetryPolicy
    /// The model, held weakly, as its load tasks hold it.
    @usableFromInline final lazy var weakReference = WeakReference(self)
    /// What the default producer calls: the `init(load:)` function, or ``load(_:)``, tried
    /// as the retry policy says.
    ///
    /// NB: made once per model. It holds the model strongly only for the duration of a call,
    /// so a model released mid-load is gone by the time the value would be delivered. Typed,
    /// so the load task calls it directly (see `SingleValueLoad.modelLoad`).
    @usableFromInline final lazy var loadFunction: @Sendable (Input) async throws -> Output = {
        let load: @Sendable (Input) async throws -> Output =
            operation ?? { [weak self] input in
                guard let self else { throw CancellationError() }
                return try await self.load(input)
            }
        guard retry.attempts > 1 else { return load }
        return { [retry] input in try await retry.run { try await load(input) } }
    }()

    /// Creates a model for a subclass that overrides ``load(_:)`` or ``producer(for:)``.
    ///
    /// - Parameters:
    ///   - refreshPolicy: What a refresh does while a load runs. Defaults to ``RefreshPolicy/latestWins``.
    ///   - lifetimeTrigger: When lifetime events refresh or cancel; `nil` for never.
    ///   - initialInput: The input lifetime refreshes use before the first refresh.
    ///   - clock: The clock that measures the content's age for ``LifetimeTrigger/minimumContentAge``.
    ///   - retry: How a failed ``load(_:)`` is tried again; the state stays `loading` (content
    ///     kept) until the last attempt. Defaults to ``RetryPolicy/never``. A subclass that
    ///     overrides ``producer(for:)`` retries in its producer.
    public init(
        refreshPolicy: RefreshPolicy = .latestWins,
        lifetimeTrigger: LifetimeTrigger? = nil,
        initialInput: Input? = nil,
        clock: any Clock<Duration> = ContinuousClock(),
        retry: RetryPolicy = .never
    ) {
        // NB: `Void` is the one input that needs no caller: lifetime refreshes always have it.
        machine = ContentLoadingStateMachine(policy: refreshPolicy, lastInput: initialInput ?? (() as Any as? Input))
        self.lifetimeTrigger = lifetimeTrigger
        self.stopwatch = Stopwatch(clock: clock)
        self.operation = nil
        self.retry = retry
    }

    /// Creates a model that loads with `load` instead of an override: the style the docs lead
    /// with, directly or from a subclass's `init` (`super.init { input in … }`).
    ///
    /// `load` is `@Sendable`, so the compiler checks that it captures only `Sendable` values and
    /// touches no main-actor state, and it runs off the main actor however it is written. It is
    /// not a method of the model, so the model can be released (and its load cancelled) while a
    /// load is in flight.
    ///
    /// ```swift
    /// let model = ContentLoadingViewModel<String, [Result]> { query in try await api.search(query) }
    /// model.refresh("swift")
    /// ```
    public init(
        refreshPolicy: RefreshPolicy = .latestWins,
        lifetimeTrigger: LifetimeTrigger? = nil,
        initialInput: Input? = nil,
        clock: any Clock<Duration> = ContinuousClock(),
        retry: RetryPolicy = .never,
        load: @escaping @Sendable (Input) async throws -> Output
    ) {
        machine = ContentLoadingStateMachine(policy: refreshPolicy, lastInput: initialInput ?? (() as Any as? Input))
        self.lifetimeTrigger = lifetimeTrigger
        self.stopwatch = Stopwatch(clock: clock)
        self.operation = load
        self.retry = retry
    }

    deinit {
        outlets.shutDown()
    }

    /// Loads the content for `input`. Override it in a subclass as
    /// `nonisolated override func load(_:)`; it then runs off the main actor.
    ///
    /// Write the `nonisolated`: the model is `@MainActor`, and an override without it takes the
    /// class's main-actor isolation, so its synchronous work (decoding, sorting) runs on the main
    /// actor and stalls the UI. With it, the compiler checks that the load touches no main-actor
    /// state. ``init(refreshPolicy:lifetimeTrigger:initialInput:clock:retry:load:)`` takes a
    /// function instead, which is nonisolated without anything to remember and does not keep
    /// the model alive while it runs, as an overridden `load` does.
    ///
    /// A `CancellationError` thrown here is not a failure: the state returns to what it was.
    ///
    /// - Throws: Any error, which ends the load in ``ContentLoadingState/error(_:previous:)``.
    nonisolated open func load(_ input: Input) async throws -> Output {
        guard let operation else {
            preconditionFailure("\(Self.self) must override load(_:) or producer(for:), or be created with init(load:)")
        }
        return try await operation(input)
    }

    /// Whether a load that starts with nothing shown stays ``ContentLoadingState/unloaded``
    /// until its producer delivers, ends or asks for `loading` (a producer made with
    /// ``ContentProducer/deferringLoading(_:)``): a model that reads a cache first overrides it
    /// to return `true`, so a cache hit is its first state, with no blank `loading` before it.
    /// A later load, with content shown, shows `loading(previous:)` at once as usual. The
    /// default is `false`.
    open var defersLoading: Bool { false }

    /// The values one refresh with `input` produces. Override it for a multi-value loader.
    ///
    /// The default produces the one value of ``load(_:)``. Called on the main actor when the
    /// load starts; the producer then runs off it.
    open func producer(for input: Input) -> ContentProducer<Output> {
        ContentProducer(body: .single(.modelLoad(input: input)))
    }

    /// Called on the main actor after every state change, before the ``states`` streams
    /// see it. Override it to react to transitions; the default does nothing.
    open func stateDidChange(from oldState: ContentLoadingState<Output>, to newState: ContentLoadingState<Output>) {}

    /// Whether `output` counts as empty, which makes the state ``ContentLoadingState/empty``.
    ///
    /// The default is `true` for an empty `Collection` and `false` for anything else.
    open func isEmpty(_ output: Output) -> Bool {
        (output as? any Collection)?.isEmpty ?? false
    }
}
