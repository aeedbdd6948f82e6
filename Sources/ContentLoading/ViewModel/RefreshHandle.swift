import ContentLoadingSupport

/// A refresh in progress, which can be awaited until something is shown, until it is
/// complete, or ignored.
///
/// Two waits, for two questions:
/// - ``settled(isolation:)``: *something is shown*. The load delivered its first value (a cached
///   one, perhaps), failed, finished or was cancelled.
/// - ``completed(isolation:)``: *the refresh is done*. The load ended, or its producer reported
///   that it caught up: a cached loader's revalidation ended and what it fetched is stored and
///   shown. This is the wait for a pull-to-refresh spinner and for a command before it exits.
///
/// For a model whose load returns one value the two are the same moment.
///
/// A handle keeps its model alive, so awaiting a refresh of a model nobody else holds still
/// gets its result; an ignored handle retains nothing.
///
/// ```swift
/// List(model.content ?? []) { ContactRow($0) }
///     .refreshable { await model.refresh().completed() }
/// ```
public struct RefreshHandle<Output: Sendable>: Sendable {
    @usableFromInline let ticket: LoadID
    @usableFromInline let outlets: LoaderOutlets<Output>
    @usableFromInline let model: any AnyObject & Sendable

    @usableFromInline init(ticket: LoadID, outlets: LoaderOutlets<Output>, model: any AnyObject & Sendable) {
        self.ticket = ticket
        self.outlets = outlets
        self.model = model
    }

    /// Waits until the load that serves this refresh settles, and returns the state it
    /// settled in.
    ///
    /// The load has settled when it produced its first value, failed, finished or was
    /// cancelled. A refresh superseded under ``RefreshPolicy/latestWins`` settles when the
    /// newer load settles. If the awaiting task is cancelled, returns the current state at
    /// once; the load goes on.
    ///
    /// Awaited on the main actor (as from SwiftUI's `.refreshable`), the wait goes on through
    /// the main queue when the load settles, so resuming it wakes no other thread. By then the
    /// model has published the settled state to Observation,
    /// ``ContentLoadingViewModel/stateDidChange(from:to:)`` and the streams (whose subscribers
    /// read it on their own tasks).
    ///
    /// - Parameter isolation: The actor the caller runs on, which this awaits on without
    ///   hopping off it; leave it to its default.
    @inlinable @inline(never) @discardableResult
    public func settled(isolation: isolated (any Actor)? = #isolation) async -> ContentLoadingState<Output> {
        // NB: the waiter is registered only now, so an ignored handle costs nothing. The
        // handle, and with it the model, is alive until this returns: the caller holds it for
        // the call, which is never inlined (keeping `model` alive here instead copied it, a
        // retain and a release of the model on every awaited refresh).
        await outlets.waitUntilSettled(ticket, isolation: isolation) ?? outlets.current
    }

    /// Whether the refresh has settled.
    public var isSettled: Bool { outlets.hasSettled(ticket) }

    /// Waits until the refresh is complete, and returns the state then.
    ///
    /// The refresh is complete when the load that serves it ended (finished, failed or was
    /// cancelled) or, for a load that keeps running to deliver later changes (a store or cache
    /// observation), when its producer reported that it caught up with what the refresh asked
    /// for (``LoadReporter/caughtUp()``): a ``ContentProducer/reporting(_:)`` producer that
    /// revalidates a cached value reports it once the fetch ended and its value is stored and
    /// shown. A complete refresh has settled. A refresh superseded under
    /// ``RefreshPolicy/latestWins`` completes when the newer load completes. If the awaiting task
    /// is cancelled, returns the current state at once; the load goes on.
    ///
    /// - Parameter isolation: The actor the caller runs on; leave it to its default.
    @discardableResult
    public func completed(isolation: isolated (any Actor)? = #isolation) async -> ContentLoadingState<Output> {
        await outlets.waitUntilCompleted(ticket, isolation: isolation) ?? outlets.current
    }

    /// Whether the refresh is complete (see ``completed(isolation:)``).
    public var isCompleted: Bool { outlets.hasCompleted(ticket) }

    /// The model's state as last published, for a test's timeout message.
    package var publishedState: ContentLoadingState<Output> { outlets.current }
}
