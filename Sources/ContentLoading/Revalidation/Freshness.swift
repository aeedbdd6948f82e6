/// How long a response said its copy stays fresh, and whether it may be stored: HTTP's
/// `Cache-Control` (`max-age`, `no-cache`, `no-store`) and `Expires`.
///
/// It travels with a value's ``Validators`` (``Validators/freshness``). A keyed repository
/// makes the value stale after ``maxAge`` instead of its own `staleAfter` (never later than its
/// `expireAfter`), and never writes a ``isNoStore`` value to disk.
///
/// ```swift
/// // Cache-Control: max-age=60          → Freshness(maxAge: .seconds(60))
/// // Cache-Control: no-cache            → Freshness(maxAge: .zero): revalidated on every read
/// // Cache-Control: no-store            → Freshness(isNoStore: true): kept in memory only
/// // Expires: <Date + 2 minutes>        → Freshness(maxAge: .seconds(120))
/// ```
public struct Freshness: Sendable, Hashable, Codable {
    /// How long the copy is fresh from when it was received: `max-age`, zero for `no-cache`,
    /// or `Expires` less the response's `Date`. `nil`: the response did not say, and the
    /// cache's own ages decide.
    public var maxAge: Duration?
    /// The response said `no-store`: the copy must not be written to disk.
    public var isNoStore: Bool

    /// Creates a freshness.
    public init(maxAge: Duration? = nil, isNoStore: Bool = false) {
        self.maxAge = maxAge
        self.isNoStore = isNoStore
    }
}
