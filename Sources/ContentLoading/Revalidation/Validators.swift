/// What identifies the version of a resource a client holds, so a server can answer "not
/// modified" instead of sending it again: HTTP's `ETag` and `Last-Modified`.
///
/// A fetch that got validators with a value sends them back when it revalidates
/// (`If-None-Match`, `If-Modified-Since`); a server whose resource has not changed answers
/// `304 Not Modified` with no body, and the client keeps the value it has
/// (``FetchResult/notModified(_:)``). A transport without validators (a file, memory) gives
/// ``none``, and every fetch is a full one.
///
/// ```swift
/// let first = try await client.fetch([Contact].self, from: url, ifChangedSince: .none)
/// // .modified([…], Validators(entityTag: "\"v7\""))
/// let again = try await client.fetch([Contact].self, from: url, ifChangedSince: first.validators)
/// // .notModified(Validators(entityTag: "\"v7\""))
/// ```
public struct Validators: Sendable, Hashable, Codable {
    /// The `ETag`, quotes and weakness prefix included (`"v7"`, `W/"v7"`).
    public var entityTag: String?
    /// The `Last-Modified` date, as the server wrote it.
    public var lastModified: String?
    /// How long the response said the copy is fresh, and whether it may be stored
    /// (`Cache-Control`, `Expires`); `nil` when it did not say. It does not identify the copy:
    /// ``isEmpty`` ignores it.
    public var freshness: Freshness?

    /// Creates validators.
    public init(entityTag: String? = nil, lastModified: String? = nil, freshness: Freshness? = nil) {
        self.entityTag = entityTag
        self.lastModified = lastModified
        self.freshness = freshness
    }

    /// No validators: the next fetch is a full one.
    public static let none = Validators()

    /// Whether there are none.
    public var isEmpty: Bool { entityTag == nil && lastModified == nil }
}
