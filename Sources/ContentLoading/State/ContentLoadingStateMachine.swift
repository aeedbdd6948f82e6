/// The pure transition logic behind ``ContentLoadingViewModel``.
///
/// The machine holds no tasks and no clock: each event is a `mutating` method that updates
/// the state and returns what the caller must do (start a load, cancel one, or nothing). The
/// view model performs those actions; tests drive the machine synchronously.
///
/// ## Transitions
///
/// | From | Event | To | Action |
/// |---|---|---|---|
/// | any, no load running | `refresh(i)` | `loading(previous: content)` | start load *n* for `i` |
/// | `unloaded`, no load running | `refresh(i, defersLoading: true)` | `unloaded` | start load *n* for `i` |
/// | `unloaded`, load *n* running | ``showLoading(from:)`` from *n* | `loading(previous: nil)` | none |
/// | `loading` (load *n*) | `refresh(i)`, ``RefreshPolicy/latestWins`` | `loading` | cancel *n*, start *n+1* for `i` |
/// | `loading` (load *n*) | `refresh(i)`, ``RefreshPolicy/joinInFlight`` | `loading` | none; the refresh waits for *n* |
/// | `loading` (load *n*) | `refresh(i)`, ``RefreshPolicy/enqueueLatest`` | `loading` | queue `i` (replacing a queued input) |
/// | any, load *n* running | value `v` from *n* | `success(v)`, or `empty` when `v` is empty | none; *n* keeps running |
/// | any, load *n* running | error `e` from *n* | `error(e, previous: content)` | start the queued input, if any |
/// | `loading` or `unloaded`, load *n* running | *n* finishes without a value | `empty` | start the queued input, if any |
/// | `success` / `empty`, load *n* running | *n* finishes | unchanged | start the queued input, if any |
/// | `loading`, load *n* running | *n* is cancelled from inside | the last settled state | start the queued input, if any |
/// | any, load *n* running | error event `e` from *n* (``report(_:from:)``) | `error(e, previous: content)` | none; *n* keeps running |
/// | any, load *n* running and settled | ``caughtUp(from:)`` from *n* | unchanged; *n* is complete | none; *n* keeps running |
/// | `loading`, load *n* running | ``cancel()`` | the last settled state (or `unloaded`) | cancel *n*, drop the queue |
/// | any but `unloaded` | ``replaceContent(_:isEmpty:)`` | the same case with the new content | none |
/// | any | value, error or finish from a load that is not running | unchanged | none (discarded) |
///
/// The last row is what makes *latest wins* hold: a superseded or cancelled load's result is
/// discarded whatever order the loads finish in. A cancellation never produces `error`.
///
/// ```swift
/// var machine = ContentLoadingStateMachine<String, [Contact]>()
/// guard case .start(let load, cancelling: nil) = machine.refresh("q") else { return }
/// machine.receive([contact], isEmpty: false, from: load.id)   // state: success([contact])
/// ```
///
/// NB: the machine is `@inlinable` throughout (with `@usableFromInline` storage behind the
/// read-only properties), so an app's model gets a copy specialised for its own `Input` and
/// `Output`. Unspecialised generic code looks up type metadata at run time on nearly every
/// line: without `@inlinable` here a refresh cycle took 44% longer (`swift run -c release
/// --package-path Benchmarks ratio-report 1`: kit 1.86 against 1.29 ms per 1,000 cycles;
/// Benchmarks/README.md, "Unchecked constructs"). The state machine tests run this code.
public struct ContentLoadingStateMachine<Input: Sendable, Output: Sendable>: Sendable {
    /// What the machine does with a refresh that arrives while a load runs.
    public let policy: RefreshPolicy
    /// The current state.
    @inlinable public var state: ContentLoadingState<Output> { storedState }
    /// The most recent error, kept through later `loading` states and cleared by a new value.
    @inlinable public var lastError: (any Error)? { storedLastError }
    /// The input of the most recent refresh that was started or queued (not joined).
    @inlinable public var lastInput: Input? { storedLastInput }
    /// The load whose results the machine currently accepts.
    @inlinable public var activeLoad: LoadID? { storedActiveLoad }
    /// Whether a refresh is queued to start when the running load ends
    /// (``RefreshPolicy/enqueueLatest``).
    @inlinable public var hasQueuedRefresh: Bool { queued != nil }
    /// The newest load that has settled (delivered a first value, failed, finished or was
    /// cancelled). A refresh whose ticket is at most this has settled.
    @inlinable public var lastSettled: LoadID? { storedLastSettled }
    /// The newest load that has completed: ended (finished, failed or cancelled), or reported
    /// that it caught up (``caughtUp(from:)``) after settling. A refresh whose ticket is at
    /// most this is complete.
    @inlinable public var lastCompleted: LoadID? { storedLastCompleted }

    @usableFromInline var storedState: ContentLoadingState<Output> = .unloaded
    @usableFromInline var storedLastError: (any Error)?
    @usableFromInline var storedLastInput: Input?
    @usableFromInline var storedActiveLoad: LoadID?
    @usableFromInline var storedLastSettled: LoadID?
    @usableFromInline var storedLastCompleted: LoadID?
    @usableFromInline var queued: LoadRequest?
    @usableFromInline var settledBeforeLoad: ContentLoadingState<Output> = .unloaded
    @usableFromInline var lastIssued: UInt64 = 0
    @usableFromInline var changes: ContentLoadingChanges = []

    /// Creates a machine in the `unloaded` state.
    ///
    /// - Parameters:
    ///   - policy: What to do with a refresh that arrives while a load runs.
    ///   - lastInput: The input lifetime refreshes use before any refresh was made.
    public init(policy: RefreshPolicy = .latestWins, lastInput: Input? = nil) {
        self.policy = policy
        self.storedLastInput = lastInput
    }

    /// A load the caller must start.
    public struct LoadRequest: Sendable {
        /// The load's identifier; pass it back with every result of the load.
        public let id: LoadID
        /// The input to load.
        public let input: Input
        /// Whether the load leaves `unloaded` only when it delivers or asks (see
        /// ``ContentLoadingStateMachine/refresh(_:defersLoading:)``).
        @usableFromInline let defersLoading: Bool

        @inlinable init(id: LoadID, input: Input, defersLoading: Bool) {
            self.id = id
            self.input = input
            self.defersLoading = defersLoading
        }
    }

    /// What the caller must do after ``ContentLoadingStateMachine/refresh(_:defersLoading:)``.
    public enum RefreshAction: Sendable {
        /// Start `load`; first cancel the load `cancelling`, when there is one.
        case start(LoadRequest, cancelling: LoadID?)
        /// Nothing to start: the refresh is served by the running load.
        case join(LoadID)
        /// Nothing to start yet: the input is queued and will run as the load `ticket`.
        case enqueue(ticket: LoadID)

        /// The load that serves this refresh; the refresh has settled once
        /// ``ContentLoadingStateMachine/lastSettled`` reaches it.
        @inlinable public var ticket: LoadID {
            switch self {
            case .start(let request, _): request.id
            case .join(let id), .enqueue(let id): id
            }
        }
    }

    /// What the caller must do after a load fails, finishes or cancels itself.
    public enum CompletionAction: Sendable {
        /// The event came from a load that is no longer running; nothing changed.
        case discard
        /// The load ended; start `next` (a queued refresh) when it is not `nil`.
        case settled(next: LoadRequest?)
    }
}
