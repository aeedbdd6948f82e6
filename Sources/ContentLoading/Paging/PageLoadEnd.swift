import ContentLoadingSupport

/// Which end of a paged list a page load extends.
package enum PagingDirection: Sendable {
    /// After the last page: ``PagingListViewModel/loadNextPage()``.
    case next
    /// Before the first page: ``PagingListViewModel/loadPreviousPage()``.
    case previous
}

/// One end of a paged list, as its model loads pages there: what the load in flight is doing,
/// its task, the signal its handle awaits and the stream of its states. Each end loads one
/// page at a time, independently of the other.
@MainActor
final class PageLoadEnd<Element: Sendable, Cursor: Sendable> {
    enum Activity {
        case idle
        case loading(PagingOrigin)
        case failed(PagingOrigin, any Error)
    }

    var activity: Activity = .idle
    /// Whether a page is loading at this end.
    var isLoading: Bool {
        if case .loading = activity { true } else { false }
    }
    /// The number of the page load started last at this end: a load that was cancelled, or
    /// overtaken by a later one at this end of the same list, finds its number stale and its
    /// page, late, is not applied.
    var loadNumber = 0
    /// The chain of pages loaded at this end, watched for a cursor that comes back.
    var cursorCycle = CursorCycle<Cursor>()
    /// The state last published (observers and ``states`` have seen it).
    var published = NextPageState.idle
    /// Shared with `deinit`, which is not on the main actor.
    let shared = Shared()

    /// What `deinit` reaches: the task, the awaited signal and the stream of states.
    final class Shared: Sendable {
        let task = Locked<Task<Void, Never>?>(nil)
        /// Resolved when the page in flight settles (see ``NextPageHandle``).
        let settle = Locked<SettleSignal<Void>?>(nil)
        let states = Broadcast<NextPageState>()

        /// Cancels the load, releases whoever awaits it and finishes the stream.
        func shutDown() {
            task.withLock { $0 }?.cancel()
            resolveSettle()
            states.finish()
        }

        /// Resolves the awaited page: it stopped loading.
        func resolveSettle() {
            settle.withLock { settle in
                defer { settle = nil }
                return settle
            }?.resolve(())
        }
    }

    nonisolated init() {}

    /// The state of this end for `list` (`nil`: no list yet; `isEmpty`: the list's state is
    /// `empty`), given whether the list has a page beyond this end.
    func state(for list: PagedList<Element, Cursor>?, isEmpty: Bool, hasPage: Bool) -> NextPageState {
        guard let list else { return isEmpty ? .endReached : .idle }
        switch activity {
        case .loading(let origin) where origin === list.origin: return .loading
        case .failed(let origin, let error) where origin === list.origin: return .failed(error)
        default: return hasPage ? .idle : .endReached
        }
    }
}
