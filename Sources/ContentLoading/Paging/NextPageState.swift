/// The load state of a paged list's next page (``PagingListViewModel/nextPageState``) or
/// previous page (``PagingListViewModel/previousPageState``), separate from the list's own
/// state.
///
/// A failed page keeps every page loaded and leaves the list's state `success`.
public enum NextPageState: Sendable, CustomStringConvertible {
    /// No next page is loading; one can be loaded (or nothing is loaded yet).
    case idle
    /// The next page is loading.
    case loading
    /// The last attempt to load the next page failed; ``PagingListViewModel/retryNextPage()``
    /// tries the same page again.
    case failed(any Error)
    /// The last page (or, before the list, the first) is loaded: there is nothing more to load
    /// that way.
    case endReached

    /// The case's name, with the error for `failed`.
    public var description: String {
        switch self {
        case .idle: "idle"
        case .loading: "loading"
        case .failed(let error): "failed(\(error))"
        case .endReached: "endReached"
        }
    }
}

extension NextPageState: Equatable {
    /// Equal when the cases match; failures compare their errors as
    /// ``ContentLoadingState/==(_:_:)`` does.
    public static func == (lhs: NextPageState, rhs: NextPageState) -> Bool {
        switch (lhs, rhs) {
        case (.idle, .idle), (.loading, .loading), (.endReached, .endReached): true
        case (.failed(let a), .failed(let b)): errorsAreEqual(a, b)
        default: false
        }
    }
}
