import ContentLoadingSupport

/// A page load at one end of a paged list (``PagingListViewModel/loadNextPage()``,
/// ``PagingListViewModel/retryNextPage()``, ``PagingListViewModel/loadPreviousPage()``,
/// ``PagingListViewModel/retryPreviousPage()``), which can be awaited until it settles or
/// ignored.
///
/// ```swift
/// // A SwiftUI footer (Apple platforms):
/// ProgressView().task { await model.loadNextPage().settled() }
/// ```
///
/// Unlike a ``RefreshHandle`` it does not keep its model alive (the page's
/// ``PagingListViewModel/loadPage(_:cursor:)`` call does, until it returns).
public struct NextPageHandle: Sendable {
    private let signal: SettleSignal<Void>?
    private let currentState: @MainActor @Sendable () -> NextPageState

    init(signal: SettleSignal<Void>?, currentState: @escaping @MainActor @Sendable () -> NextPageState) {
        self.signal = signal
        self.currentState = currentState
    }

    /// Waits until the page has been added, has failed, or its load was cancelled (by
    /// ``PagingListViewModel/cancelNextPage()``, ``PagingListViewModel/cancelPreviousPage()``
    /// or a refresh), and returns the state of that end then: `idle` or `endReached` after
    /// the page was added, `failed` after a failure. A call made while that end's page was
    /// loading (started by another call, or by the model itself) awaits that page. A call that
    /// started nothing (a refresh loading, the end reached, no first page, a failed page without
    /// a retry) returns the current state at once.
    ///
    /// If the awaiting task is cancelled, returns the current state at once; the load goes on.
    /// When the model is gone, returns `idle`.
    @MainActor @discardableResult
    public func settled() async -> NextPageState {
        if let signal { _ = await signal.wait() }
        return currentState()
    }

    /// Whether the page awaited has settled (always `true` for a call that started and joined
    /// nothing).
    public var isSettled: Bool { signal?.isResolved ?? true }
}
