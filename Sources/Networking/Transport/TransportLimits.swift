/// The bounds every load of a ``Transport`` keeps, so that no server and no file can hold a
/// caller forever or fill its memory.
///
/// ```swift
/// let client = APIClient(transport: .standard(limits: TransportLimits(idleTimeout: .seconds(10), deadline: .seconds(30))))
/// ```
///
/// - ``idleTimeout``: the longest wait for the next bytes of an http(s) response.
/// - ``deadline``: the longest a whole http(s) load may take, however steadily bytes arrive
///   (a server that sends one byte a second never trips the idle timeout), every redirect it
///   follows included.
/// - ``maximumBodySize``: the most bytes a body may have, counted after decompression (so a
///   small gzip body that inflates to gigabytes stops at the limit), for http(s) and files.
public struct TransportLimits: Sendable, Hashable {
    /// The longest wait for the next bytes of an http(s) response. Defaults to 30 seconds.
    public var idleTimeout: Duration
    /// The longest a whole http(s) load may take, its redirects included. Defaults to 120
    /// seconds.
    public var deadline: Duration
    /// The most bytes a body may have after decompression. Defaults to 32 MiB.
    public var maximumBodySize: Int

    /// Creates limits; each has a default that suits an app's JSON API.
    public init(
        idleTimeout: Duration = .seconds(30), deadline: Duration = .seconds(120), maximumBodySize: Int = 32 << 20
    ) {
        self.idleTimeout = idleTimeout
        self.deadline = deadline
        self.maximumBodySize = maximumBodySize
    }
}
