// The sample of "Loading screens in SwiftUI" (SwiftUI.md).
import ContentLoading

#if canImport(SwiftUI)
    import SwiftUI
#endif

public enum SwiftUIArticle {
    public typealias Post = FeedContext.Post
    public typealias FeedAPI = FeedContext.FeedAPI

    struct PostRow: View {
        let post: Post
        var body: some View { Text("post") }
    }

    // sample: Sources/ContentLoading/ContentLoading.docc/SwiftUI.md#1
    final class FeedModel: PagingListViewModel<String, Post, String> {
        init(api: FeedAPI) {
            super.init(lifetimeTrigger: LifetimeTrigger(refreshOn: .willAppear, unlessYoungerThan: .seconds(60)),
                       initialInput: "swift", deduplicatingBy: { $0.id }) { topic, cursor in
                let response = try await api.posts(topic: topic, after: cursor)
                return Page(items: response.posts, nextCursor: response.next)
            }
        }
    }

    struct FeedScreen: View {
        @State var model: FeedModel

        var body: some View {
            List {
                if let error = model.state.error {
                    // The content stays below the banner: an error never hides what was loaded.
                    ErrorBanner(error: error) { model.refresh("swift") }
                }
                ForEach(model.items) { post in
                    PostRow(post: post)
                        .onAppear { model.loadMoreIfNeeded(currentItem: post) }
                }
                NextPageFooter(model: model)
            }
            .overlay {
                switch model.state {
                case .unloaded, .loading(previous: nil): ProgressView()
                case .empty: ContentUnavailableView("No posts yet", systemImage: "tray")
                case .error(_, previous: nil): ContentUnavailableView("Could not load", systemImage: "wifi.slash")
                default: EmptyView()
                }
            }
            .refreshable { await model.refresh("swift").completed() }     // the spinner stays until it is done
            .onAppear { model.viewLifetime = .willAppear }                 // refreshes unless younger than 60 s
            .onDisappear { model.viewLifetime = .didDisappear }
        }
    }

    struct NextPageFooter: View {
        let model: FeedModel

        var body: some View {
            switch model.nextPageState {
            case .idle:
                // Shown when the last row is on screen: load the next page and wait for it.
                ProgressView().task { await model.loadNextPage().settled() }
            case .loading:
                ProgressView()
            case .failed(let error):
                Button("Couldn't load more (\(error.localizedDescription)). Retry") { model.retryNextPage() }
            case .endReached:
                EmptyView()
            }
        }
    }

    struct ErrorBanner: View {
        let error: any Error
        let retry: () -> Void

        var body: some View {
            HStack {
                Label(error.localizedDescription, systemImage: "exclamationmark.triangle")
                Spacer()
                Button("Retry", action: retry)
            }
            .foregroundStyle(.orange)
        }
    }
    // end sample
}
