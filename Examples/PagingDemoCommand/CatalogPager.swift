import ContentLoading
import ContentLoadingNetworking
import ContentLoadingSupport
import Foundation

/// One entry of the demo catalog.
public struct CatalogItem: Codable, Sendable, Hashable, Identifiable {
    /// The entry's number, from 1.
    public let id: Int
    /// Its name.
    public let name: String
}

/// Why a demo page failed.
public struct DemoPageFailure: Error, CustomStringConvertible {
    /// The 1-based page that failed.
    public let page: Int
    /// A message naming the page.
    public var description: String { "page \(page) failed on purpose (--fail-page \(page))" }
}

/// Pages through a catalog JSON file as a server would: each request reads the file and
/// answers one slice of it, with the total count.
public final class CatalogPager: OffsetPagingListViewModel<URL, CatalogItem> {
    /// Creates a pager.
    ///
    /// - Parameters:
    ///   - pageSize: Items per page.
    ///   - failingOncePage: A 1-based page whose first request fails.
    ///   - pageWindow: Keep at most this many pages; `nil` keeps all.
    public init(pageSize: Int = 25, failingOncePage: Int? = nil, pageWindow: Int? = nil) {
        let client = APIClient(transport: .fileSystem)
        let pageToFailOnce = Locked(failingOncePage)
        // The slice `offset..<offset + limit` of the catalog at `url`, loaded off the main actor.
        super.init(pageSize: pageSize, pageWindow: pageWindow) { url, offset, limit in
            let page = offset / limit + 1
            let fails = pageToFailOnce.withLock { failing in
                defer { if failing == page { failing = nil } }
                return failing == page
            }
            if fails { throw DemoPageFailure(page: page) }
            let all = try await client.fetch([CatalogItem].self, from: url)
            let start = min(offset, all.count)
            return OffsetPage(items: Array(all[start..<min(offset + limit, all.count)]), totalCount: all.count)
        }
    }
}
