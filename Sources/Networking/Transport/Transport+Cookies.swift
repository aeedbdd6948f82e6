import Foundation

extension Transport {
    /// Removes the cookies that servers set (`Set-Cookie`) through the transports made without
    /// a configuration.
    ///
    /// Those transports (``urlSession(limits:configuration:)`` and
    /// ``standard(limits:configuration:)`` with `configuration` `nil`, so every `APIClient()`)
    /// share one ephemeral session, which keeps the cookies servers set and sends them back, as
    /// `URLSession` does, for the life of the process. An app whose server keeps a session in a
    /// cookie calls this at a sign-out, so the next account's requests do not go with the last
    /// one's session:
    ///
    /// ```swift
    /// Transport.removeSharedCookies()   // at a sign-out
    /// ```
    ///
    /// A transport made with a configuration keeps its cookies in the configuration's
    /// `httpCookieStorage`, which the app holds (`nil` there keeps none).
    public static func removeSharedCookies() {
        HTTPSession.shared.removeCookies()
    }
}
