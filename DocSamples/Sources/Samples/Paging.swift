// The samples of "Paging" (Sources/ContentLoading/ContentLoading.docc/Paging.md).
import ContentLoading
import ContentLoadingRepository

#if canImport(SwiftUI)
    import SwiftUI
#endif

public enum Paging {
    public typealias Post = FeedContext.Post
    public typealias FeedAPI = FeedContext.FeedAPI

    struct PostRow: View {
        init(_ post: Post) {}
        var body: some View { Text("post") }
    }

    // sample: Sources/ContentLoading/ContentLoading.docc/Paging.md#1
    final class FeedModel: PagingListViewModel<String, Post, String> {
        init(api: FeedAPI) {
            super.init(prefetchDistance: 5, deduplicatingBy: { $0.id }) { topic, cursor in
                let response = try await api.posts(topic: topic, after: cursor)
                return Page(items: response.posts, nextCursor: response.next)
            }
        }
    }
    // end sample

    // sample: Sources/ContentLoading/ContentLoading.docc/Paging.md#2
    struct FeedView: View {
        @State var model: FeedModel

        var body: some View {
            List {
                ForEach(model.items) { post in
                    PostRow(post)
                        .onAppear { model.loadMoreIfNeeded(currentItem: post) }
                }
                switch model.nextPageState {
                case .loading: ProgressView()
                case .failed(let error): Button("Retry: \(error.localizedDescription)") { model.retryNextPage() }
                case .idle, .endReached: EmptyView()
                }
            }
            .refreshable { await model.refresh("swift").completed() }
            .task { model.refresh("swift") }
        }
    }
    // end sample

    // sample: Sources/ContentLoading/ContentLoading.docc/Paging.md#5
    @MainActor func keepPlace(of post: Post, in model: FeedModel) async {
        model.anchor = post.id                     // the row the reader is looking at, from its onAppear
        await model.refresh("swift").completed()   // new posts above it: it keeps its index
    }
    // end sample

    public typealias Contact = Caching.Contact

    /// A server of contacts in pages, for the persisted paging sample.
    public protocol ContactPagesAPI: Sendable {
        func contacts(after cursor: String?) async throws -> Page<Contact, String>
    }

    /// The persisted paging sample: opens the feed kept in the file at `cachePath`, saves
    /// `edited`, and returns the feed.
    @MainActor public static func persisted(api: some ContactPagesAPI, cachePath: String, edited: Contact)
        async throws -> PagingListViewModel<Void, Contact, String>
    {
        // sample: Sources/ContentLoading/ContentLoading.docc/Paging.md#3
        let contacts = ElementStore<Contact>(disk: try DiskCache(.file(path: cachePath)))
        let feed = PagingListViewModel(source: .persisted(in: contacts, key: "feed") { cursor in
            try await api.contacts(after: cursor)          // a Page<Contact, String>
        })
        await feed.refresh().completed()   // the stored first page at once (offline too), then the server's
        try await contacts.save(edited)    // one row: the feed, its stored pages and every list holding it show it
        // end sample
        return feed
    }

    /// A server of contacts in pages that answers "not modified" to a page's entity tag.
    public protocol ContactPagesIfChangedAPI: Sendable {
        func contacts(after cursor: String?, ifNoneMatch entityTag: String?) async throws
            -> FetchResult<Page<Contact, String>>
    }

    /// The sample of stored pages asked for again after an hour: the feed over the file at
    /// `cachePath`, refreshed and paged to its end.
    @MainActor public static func revalidating(api: some ContactPagesIfChangedAPI, cachePath: String) async throws
        -> PagingListViewModel<Void, Contact, String>
    {
        let contacts = ElementStore<Contact>(disk: try DiskCache(.file(path: cachePath)))
        // sample: Sources/ContentLoading/ContentLoading.docc/Paging.md#4
        let feed = PagingListViewModel(
            source: .persisted(in: contacts, key: "feed", revalidatingPagesOlderThan: .seconds(3_600)) { cursor, validators in
                try await api.contacts(after: cursor, ifNoneMatch: validators.entityTag)
            })
        // end sample
        await feed.refresh().completed()
        while feed.nextPageState == .idle { await feed.loadNextPage().settled() }
        return feed
    }
}
