/// What a ``ContentProducer/reporting(_:)`` producer reports through: its values and errors,
/// that it found nothing to show at once, and that it caught up with what its refresh asked for.
///
/// ```swift
/// .reporting { load in
///     if let cached = await cache.value(for: key) { await load.send(.value(cached)) } else { await load.showLoading() }
///     await load.send(.value(try await api.contacts(seller: key)))
///     await load.caughtUp()                    // the refresh is complete; the load goes on
///     for await saved in cache.saves(of: key) { await load.send(.value(saved)) }
/// }
/// ```
///
/// Each call reaches the model on the main actor and returns once the model has taken it in.
/// Calls from a load that is no longer the model's running one (superseded or cancelled)
/// change nothing.
public struct LoadReporter<Output: Sendable>: Sendable {
    @usableFromInline let deliver: @Sendable (ContentEvent<Output>) async -> Void
    @usableFromInline let askForLoading: @Sendable () async -> Void
    @usableFromInline let reportCaughtUp: @Sendable () async -> Void
    @usableFromInline let reportNoValue: @Sendable () async -> Void

    @usableFromInline init(
        deliver: @escaping @Sendable (ContentEvent<Output>) async -> Void,
        askForLoading: @escaping @Sendable () async -> Void,
        reportCaughtUp: @escaping @Sendable () async -> Void,
        reportNoValue: @escaping @Sendable () async -> Void
    ) {
        self.deliver = deliver
        self.askForLoading = askForLoading
        self.reportCaughtUp = reportCaughtUp
        self.reportNoValue = reportNoValue
    }

    /// Hands the model `event`: a value re-enters `success` / `empty`; an error moves the state to
    /// `error(_, previous:)` without ending the load.
    public func send(_ event: ContentEvent<Output>) async { await deliver(event) }

    /// Says the load found nothing to show at once and goes on to a slow load: a model whose
    /// ``ContentLoadingViewModel/defersLoading`` is `true` shows `loading(previous: nil)` now
    /// instead of staying `unloaded`.
    public func showLoading() async { await askForLoading() }

    /// Says the load has done what its refresh asked for (its fetch ended, and what it fetched
    /// is stored and sent); the refreshes it serves are complete
    /// (``RefreshHandle/completed(isolation:)`` returns). Later values still arrive. Has no
    /// effect before the load has sent a value or an error: a refresh completes only once
    /// something is shown; ending the load completes it in any case.
    public func caughtUp() async { await reportCaughtUp() }

    /// Says the source holds no value now (what the load showed was removed, or it never held
    /// one): the state becomes `empty`, the content shown is dropped, and the load goes on, so
    /// a later value still arrives. A screen never keeps showing what its source removed.
    ///
    /// ```swift
    /// .reporting { load in
    ///     for await saved in cache.entries(of: key) {          // nil: the entry was removed
    ///         if let saved { await load.send(.value(saved)) } else { await load.clear() }
    ///     }
    /// }
    /// ```
    public func clear() async { await reportNoValue() }
}
