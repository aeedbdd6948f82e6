import Foundation

/// A redirect the server answered a request with, which ``HTTPSession`` follows itself: the
/// session following it sent a write's method again with an empty body (FoundationNetworking),
/// or a `POST` as a `GET` whose answer then passed for the write's.
struct Redirect: Error {
    /// Where to (resolved against the request's URL).
    let target: URL
    /// The redirect's status: 301, 302, 303, 307 or 308.
    let status: Int

    /// The most redirects one load follows, as browsers do.
    static let limit = 20

    /// `request` sent again to ``target``:
    ///
    /// - as it was (its method, body and headers) for every status but `303`, which is the
    ///   server's answer to a write, to be read with a `GET` (a `HEAD` stays one), without a
    ///   body;
    /// - to another origin (scheme, host or port), without its secret headers
    ///   (``TransportRequest/secretHeaderNames`` and its own): the credentials are the first
    ///   origin's, as a browser's fetch and curl keep them.
    func following(_ request: TransportRequest) -> TransportRequest {
        var next = request
        next.url = target
        if status == 303 {
            if next.method != .head { next.method = .get }
            next.body = nil
            next.headers = next.headers.filter { $0.key.lowercased() != "content-type" }
        }
        if !target.hasSameOrigin(as: request.url) {
            let secret = request.secretHeaderNamesLowercased
            next.headers = next.headers.filter { !secret.contains($0.key.lowercased()) }
        }
        return next
    }
}
