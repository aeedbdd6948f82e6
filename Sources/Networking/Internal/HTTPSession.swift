import ContentLoading
import ContentLoadingSupport
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `URLSession` with a delegate of its own, so that every load keeps its ``TransportLimits``
/// while the bytes arrive: the body limit stops a download at the limit (not after it has
/// been inflated whole), redirects are checked, and a deadline bounds the whole load.
final class HTTPSession: Sendable {
    /// The session every transport made without a configuration shares.
    static let shared = HTTPSession(configuration: sharedConfiguration)

    /// An ephemeral configuration; on Linux with room for 32 connections to a host, not 6.
    ///
    /// NB: on Linux a load that ends early (cancelled, past its deadline or its idle timeout)
    /// leaves its task to finish (see `HTTPExchange.cancel(_:)`), holding its connection until
    /// it does or the session's timeout ends it; with 6, six such loads held every connection
    /// to their server and the next loads waited behind them until they timed out.
    private static var sharedConfiguration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        #if canImport(FoundationNetworking)
            configuration.httpMaximumConnectionsPerHost = 32
        #endif
        return configuration
    }

    private let session: URLSession
    private let delegate = SessionDelegate()
    /// The configuration's `httpAdditionalHeaders`, which each request carries as its own
    /// (see ``init(configuration:)``).
    private let additionalHeaders: [String: String]

    /// A session with `configuration` (a copy: the caller's is not changed).
    ///
    /// NB: the configuration's `httpAdditionalHeaders` are taken off the session and sent as
    /// each request's own headers (a request's header of the same name wins, as it does in
    /// `URLSession`). The session adds its headers to every request it sends, so an
    /// `Authorization` set there went to whatever origin a server redirected to; as a request's
    /// own, the redirect rule (``Redirect/following(_:)``) keeps the secret ones at their origin.
    init(configuration: URLSessionConfiguration) {
        let configuration = configuration.copy() as! URLSessionConfiguration
        additionalHeaders = Dictionary(
            (configuration.httpAdditionalHeaders ?? [:]).map { ("\($0.key)", "\($0.value)") },
            uniquingKeysWith: { _, last in last })
        configuration.httpAdditionalHeaders = nil
        // NB: the session holds its delegate strongly and the delegate holds nothing of the
        // session, so invalidating the session in `deinit` frees both.
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Removes every cookie the session keeps (servers set them with `Set-Cookie`).
    func removeCookies() {
        session.configuration.httpCookieStorage?.removeCookies(since: .distantPast)
    }

    /// Sends `request` within `limits`: its method, headers, body and validators, following
    /// redirects to http(s) (``Redirect``: at most ``Redirect/limit``).
    ///
    /// A cancellation or the deadline ends the load at once: the caller does not wait for the
    /// session to wind the task down. The deadline bounds the whole load, every redirect in it.
    func fetch(_ transportRequest: TransportRequest, limits: TransportLimits) async throws -> TransportResponse {
        // NB: the load ends at its own deadline, or at its load's (a retry policy's), if earlier.
        var (end, shown) = (ContinuousClock.now + limits.deadline, limits.deadline)
        if let load = LoadDeadline.current, load.end < end { (end, shown) = (load.end, load.duration) }
        var request = transportRequest.addingHeaders(additionalHeaders)
        for _ in 0...Redirect.limit {
            do {
                return try await send(request, from: transportRequest.url, limits: limits, until: end, shown: shown)
            } catch let redirect as Redirect {
                request = redirect.following(request)
            }
        }
        throw APIError.transport(url: request.url, reason: URLError.Code.httpTooManyRedirects.explanation ?? "")
    }

    /// Sends `transportRequest`, a hop of the load that started at `requestedURL`, until `end`
    /// (the deadline, `shown` in its error).
    ///
    /// - Throws: ``Redirect`` when the server redirected it.
    private func send(
        _ transportRequest: TransportRequest, from requestedURL: URL, limits: TransportLimits,
        until end: ContinuousClock.Instant, shown: Duration
    ) async throws -> TransportResponse {
        let url = transportRequest.url
        // NB: `URLSession` would drop such a header without a word.
        if let name = transportRequest.unsendableHeaderName { throw APIError.invalidHeader(name: name, url: url) }
        var request = URLRequest(url: url.withLowercasedScheme)
        request.timeoutInterval = LoadWatchdog.sessionTimeout(for: limits.idleTimeout)
        request.httpMethod = transportRequest.method.rawValue
        request.httpBody = transportRequest.body
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        for (name, value) in transportRequest.headerFields { request.setValue(value, forHTTPHeaderField: name) }
        // NB: the caller keeps its own copy and validators; the session's cache must neither
        // answer for the server nor turn a 304 into the cached 200.
        request.cachePolicy = .reloadIgnoringLocalCacheData
        let task = session.dataTask(with: request)
        let exchange = HTTPExchange(url: url, requestedURL: requestedURL, limits: limits)
        // NB: registered before anything can cancel the task, so its completion always finds
        // the exchange, which keeps the result until the caller waits for it.
        delegate.register(exchange, for: task)
        let watchdog = LoadWatchdog(exchange, url: url, idleTimeout: limits.idleTimeout, end: end, shown: shown) {
            [weak exchange, weak task] in
            if let exchange, let task { exchange.cancel(task) }
        }
        defer { watchdog.cancel() }
        return try await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                exchange.start(continuation)
                task.resume()
            }
            return try exchange.result()
        } onCancel: {
            exchange.abandon(with: CancellationError())
            exchange.cancel(task)
        }
    }
}

extension TransportRequest {
    /// The request with `headers` added, but for those it has under another case of the name.
    fileprivate func addingHeaders(_ headers: [String: String]) -> TransportRequest {
        guard !headers.isEmpty else { return self }
        let own = Set(self.headers.keys.map { $0.lowercased() })
        var request = self
        for (name, value) in headers where !own.contains(name.lowercased()) { request.headers[name] = value }
        return request
    }
}
