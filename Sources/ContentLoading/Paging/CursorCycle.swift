import ContentLoadingSupport

/// Watches the onward cursors one end of a paged list is given, page after page, for a cycle
/// however long: a chain of pages, each loaded at the cursor the page before it gave, that
/// comes back to a cursor it was given before would load the same pages for ever.
///
/// Brent's cycle finding: one cursor of the chain is kept and each new one compared with it;
/// the kept cursor moves on to the newest after 1, 2, 4, 8 … more pages. Memory and time per
/// page stay constant, whatever the list's length; a cycle of `λ` pages that begins after `μ`
/// pages of the chain is found by the time `2 · max(μ, λ) + λ` pages were loaded in the chain.
/// (A cycle through the last pages held is found at once by ``PagedList/leadsBack(_:from:at:)``.)
///
/// The chain starts again with any page that was not loaded at the cursor the chain's last
/// page gave (pages dropped by the page window and loaded again, a refresh's new list), so
/// pages a user scrolls back to are never taken for a cycle.
struct CursorCycle<Cursor: Sendable> {
    /// The list whose chain this is.
    private var origin: PagingOrigin?
    /// The onward cursor the chain's last page gave: the cursor its next page is loaded at.
    private var last: Cursor?
    private var kept: Cursor?
    /// Pages of the chain since `kept` was, and after how many it moves on.
    private var sinceKept = 0
    private var stretch = 1

    /// Records that the page loaded at `requested`, for the list of `origin`, gave `onward`;
    /// returns whether `onward` was given before in the chain (and then records nothing).
    /// Cursors are compared when `Cursor` is `Equatable`; other cursors are never found again.
    mutating func repeats(_ onward: Cursor, givenByPageAt requested: Cursor?, of origin: PagingOrigin) -> Bool {
        if !continues(at: requested, of: origin) { self = CursorCycle(origin: origin) }
        if let kept, isSame(kept, onward) { return true }
        last = onward
        sinceKept += 1
        if sinceKept == stretch {
            kept = onward
            sinceKept = 0
            stretch *= 2
        }
        return false
    }

    private init(origin: PagingOrigin?) { self.origin = origin }

    /// Whether a page loaded at `requested` for the list of `origin` is the chain's next.
    private func continues(at requested: Cursor?, of origin: PagingOrigin) -> Bool {
        guard self.origin === origin, let last, let requested else { return false }
        return isSame(last, requested)
    }

    init() { self.init(origin: nil) }
}
