import ContentLoadingSupport
import Foundation

/// When the stored pages of the paged lists over an ``ElementStore`` were last confirmed by
/// their source ("not modified", which writes nothing to the file), so a page confirmed less
/// than ``PersistedPages/maxAge`` ago joins a list without a request while its row is the one
/// confirmed. Kept in memory only (a relaunch asks again), for the newest 1,000 confirmations.
final class PageConfirmations: Sendable {
    /// A page's row version and when it was confirmed, by page (see ``page(_:request:)``), and
    /// the pages in the order they were confirmed, oldest first.
    private let state = Locked((confirmed: [String: (version: Int, at: Date)](), order: [String]()))
    /// How many confirmations are kept.
    static let limit = 1_000

    /// Records that the stored page `page`, whose row was at `version`, was confirmed `at`.
    func confirm(_ page: String, version: Int, at date: Date) {
        state.withLock { state in
            if state.confirmed.updateValue((version, date), forKey: page) != nil {
                state.order.removeAll { $0 == page }
            }
            state.order.append(page)
            guard state.order.count > Self.limit else { return }
            state.confirmed[state.order.removeFirst()] = nil
        }
    }

    /// When the stored page `page` was last confirmed, while its row is at `version`; `nil`
    /// when it was not, or was written since.
    func confirmedAt(_ page: String, version: Int) -> Date? {
        state.withLock { state in
            state.confirmed[page].flatMap { $0.version == version ? $0.at : nil }
        }
    }

    /// The name of the stored page of the list `listKey` that `request` loads (`nil`: the
    /// initial page).
    static func page(_ listKey: String, request: String?) -> String {
        listKey + "\u{1F}" + (request ?? "")
    }
}
