import ContentLoadingSupport
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One http(s) load in flight: collects the body within its limits, follows the redirects it
/// allows, and resumes its caller once, which then takes the response or an ``APIError``
/// (``result()``).
///
/// The session's events and the caller's continuation may come in either order (a task
/// cancelled at once can complete before the caller waits), so the result waits for whichever
/// comes second.
///
/// NB: the result is not handed over in the continuation but read under the lock after it:
/// when a continuation is resumed before its task reaches the `await` (a deadline already past
/// fires the watchdog while the load starts), the runtime lets the task run on without telling
/// ThreadSanitizer, which then reported the watchdog's error, made on its thread, as read by
/// the caller's in a race (Swift 6.3: `swift_continuation_await` has no TSan acquire on its
/// already-resumed path). The lock is an order that TSan sees, whichever thread ends the load.
final class HTTPExchange: Sendable {
    private struct State {
        var url: URL
        var statusCode: Int?
        var headers: [String: String] = [:]
        var body = Data()
        var failure: APIError?
        /// Where the server redirected the request, which the caller follows (``Redirect``).
        var redirect: Redirect?
        var result: Result<TransportResponse, any Error>?
        var continuation: CheckedContinuation<Void, Never>?
        /// When the exchange last heard from the session or sent to it (``lastActivity``).
        var lastActivity = ContinuousClock.now
    }

    /// The URL the load started at, before any redirect.
    private let requestedURL: URL
    private let limits: TransportLimits
    private let state: Locked<State>

    /// An exchange for `url`, a hop of the load that started at `requestedURL` (`url` itself
    /// when it is the first).
    init(url: URL, requestedURL: URL, limits: TransportLimits) {
        self.requestedURL = requestedURL
        self.limits = limits
        state = Locked(State(url: url))
    }

    /// Resumes `continuation` once the exchange has its result: now, or when it arrives.
    func start(_ continuation: CheckedContinuation<Void, Never>) {
        let ended = state.withLock { state in
            if state.result == nil { state.continuation = continuation }
            return state.result != nil
        }
        if ended { continuation.resume() }
    }

    /// The response, or the error the load ended with; called once ``start(_:)``'s
    /// continuation has resumed, so the exchange has ended.
    func result() throws -> TransportResponse {
        guard let result = state.withLock({ $0.result }) else {
            preconditionFailure("the exchange for \(requestedURL.redactedForDisplay) was read before it ended")
        }
        return try result.get()
    }

    /// When bytes last came or went: the exchange's start, the response head, the last bytes
    /// of the body or of the request's body sent.
    var lastActivity: ContinuousClock.Instant { state.withLock { $0.lastActivity } }

    /// Bytes of the request's body went out.
    func sent() {
        state.withLock { $0.lastActivity = .now }
    }

    /// The response head: whether to go on receiving its body.
    func receive(_ response: URLResponse) -> Bool {
        state.withLock { state in
            state.lastActivity = .now
            if let http = response as? HTTPURLResponse {
                state.statusCode = http.statusCode
                for case (let name as String, let value as String) in http.allHeaderFields {
                    state.headers[name.lowercased()] = value
                }
            }
            guard response.expectedContentLength <= Int64(limits.maximumBodySize) else {
                state.failure = .bodyTooLarge(url: state.url, limit: limits.maximumBodySize)
                return false
            }
            return true
        }
    }

    /// Bytes of the body, already decompressed: whether to go on (`false` past the limit).
    /// Once the exchange has its result (abandoned, failed), they are dropped.
    func receive(_ data: Data) -> Bool {
        state.withLock { state in
            state.lastActivity = .now
            guard state.result == nil else { return true }
            guard state.body.count + data.count <= limits.maximumBodySize else {
                state.failure = .bodyTooLarge(url: state.url, limit: limits.maximumBodySize)
                return false
            }
            state.body.append(data)
            return true
        }
    }

    /// The server redirected the request to `target` with `status`: the exchange ends with a
    /// ``Redirect`` for the caller to follow, or with ``APIError/redirectRefused(from:to:)``
    /// when `target` is not http(s). (The session does not follow it: FoundationNetworking
    /// sent a write's method again with an empty body.)
    func redirect(to target: URL, status: Int) {
        state.withLock { state in
            guard ["http", "https"].contains(target.scheme?.lowercased()) else {
                state.failure = .redirectRefused(from: state.url, to: target)
                return
            }
            state.redirect = Redirect(target: target, status: status)
        }
    }

    /// The session finished the task, with `error` when it failed. Nothing happens when the
    /// exchange was abandoned.
    func complete(error: (any Error)?) {
        finish { state in outcome(of: state, error: error) }
    }

    /// Ends the exchange now with the failure it recorded (a body over the limit).
    func abandonWithRecordedFailure() {
        finish { state in outcome(of: state, error: nil) }
    }

    /// Ends the exchange with `error` now (a deadline, a cancellation), without waiting for the
    /// session to finish the task: the caller returns at once, whenever the session gets to it.
    func abandon(with error: any Error) {
        finish { _ in .failure(error) }
    }

    /// Stops the session's `task`, the task of this exchange, whose caller has its result
    /// (the exchange was abandoned, or it failed).
    ///
    /// NB: on Linux the task is left to finish. FoundationNetworking traps when a cancellation
    /// meets the task's completion ("Trying to access a behaviour for a task that in not in the
    /// registry", swift-corelibs-foundation#3296), or comes while the session waits for the
    /// answer to its redirect callback ("Received callback for HTTP redirection, but we're not
    /// waiting for it"): 3,000 loads, each cancelled at a random moment, crashed the process in
    /// a third of the runs on a busy machine, and every run once they were redirected. What
    /// the task still receives is dropped (``receive(_:)``), and the session's own timeout, a
    /// second after the idle timeout, ends one that goes quiet.
    func cancel(_ task: URLSessionTask) {
        #if !canImport(FoundationNetworking)
            task.cancel()
        #endif
    }

    /// Records the result `decide` makes, unless there is one, and resumes the caller if it waits.
    private func finish(_ decide: (State) -> Result<TransportResponse, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.result == nil else { return nil }
            state.result = decide(state)
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }

    private func outcome(of state: State, error: (any Error)?) -> Result<TransportResponse, any Error> {
        if let failure = state.failure { return .failure(failure) }
        if let redirect = state.redirect { return .failure(redirect) }
        guard let error else {
            return .success(
                TransportResponse(
                    url: state.url, statusCode: state.statusCode, headers: state.headers, body: state.body))
        }
        guard let urlError = error as? URLError else {
            return .failure(APIError.transport(url: state.url, reason: error.localizedDescription))
        }
        #if canImport(FoundationNetworking)
            // NB: swift-corelibs-foundation#5496, fixed after Swift 6.3: its check of the host
            // libcurl connected to did not allow for an IPv6 literal's brackets.
            if [.unsupportedURL, .badURL].contains(urlError.code), state.url.host?.contains(":") == true {
                let reason = "Linux's URLSession cannot load a URL whose host is an IPv6 address; use a host name"
                return .failure(APIError.transport(url: state.url, reason: reason))
            }
        #endif
        switch urlError.code {
        case .cancelled: return .failure(CancellationError())
        case .timedOut: return .failure(APIError.timedOut(url: state.url, after: limits.idleTimeout))
        default:
            var reason = urlError.code.explanation ?? urlError.localizedDescription
            if state.url != requestedURL { reason += " (redirected from \(requestedURL.redactedForDisplay))" }
            return .failure(APIError.transport(url: state.url, reason: reason))
        }
    }
}

extension URLError.Code {
    /// What the failures a JSON client meets mean, in words (Linux's Foundation gives only
    /// "NSURLErrorDomain error -1005" for some).
    var explanation: String? {
        switch self {
        case .cannotConnectToHost: "could not connect to the server"
        case .networkConnectionLost: "the connection closed before the whole response arrived"
        case .httpTooManyRedirects: "too many redirects (a redirect loop?)"
        case .unsupportedURL, .badURL: "the URL is not one this transport can load"
        case .cannotFindHost, .dnsLookupFailed: "the server's name could not be resolved"
        case .badServerResponse, .cannotParseResponse: "the server's response is not valid HTTP"
        case .cannotDecodeContentData, .cannotDecodeRawData: "the response body could not be decompressed"
        case .notConnectedToInternet: "there is no network connection"
        case .secureConnectionFailed: "the TLS connection failed"
        case .zeroByteResource: "the response was empty"
        default: nil
        }
    }
}
