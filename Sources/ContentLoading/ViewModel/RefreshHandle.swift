import ContentLoadingSupport

/// A refresh in progress, which can be awaited until the loader settles or ignored.
///
/// A handle keeps its model alive, so awaiting a refresh of a model nobody else holds still
/// gets its result; an ignored handle retains nothing.
///
/// ```swift
/// List(model.content ?? []) { ContactRow($0) }
///     .refreshable { await model.refresh().settled() }
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

    /// The model's state as last published, for a test's timeout message.
    package var publishedState: ContentLoadingState<Output> { outlets.current }
}
