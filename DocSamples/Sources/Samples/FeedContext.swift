// What the paging samples (Paging.md, SwiftUI.md) take as given: posts and an API that pages them.

public enum FeedContext {
    public struct Post: Sendable, Identifiable, Equatable {
        public let id: Int
        public init(id: Int) { self.id = id }
    }

    public struct PostsResponse: Sendable {
        public let posts: [Post]
        public let next: String?
    }

    public struct FeedAPI: Sendable {
        public func posts(topic: String, after cursor: String?) async throws -> PostsResponse {
            PostsResponse(posts: [], next: nil)
        }
    }
}
