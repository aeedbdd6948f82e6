// The samples of "Paging" (Sources/ContentLoading/ContentLoading.docc/Paging.md).
import ContentLoading

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
}
