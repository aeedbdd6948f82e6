import Foundation

extension URL {
    /// Whether `other` has the same origin: the same scheme and host (in any case) and the same
    /// port, a missing port being the scheme's default (80 for http, 443 for https).
    func hasSameOrigin(as other: URL) -> Bool {
        scheme?.lowercased() == other.scheme?.lowercased() && host?.lowercased() == other.host?.lowercased()
            && effectivePort == other.effectivePort
    }

    /// The URL with its scheme in lower case: schemes are case-insensitive (RFC 3986, section
    /// 3.1), but Linux's `URLSession` refused `HTTP://…` as a URL it cannot load.
    var withLowercasedScheme: URL {
        guard let scheme, scheme != scheme.lowercased(),
            var components = URLComponents(url: self, resolvingAgainstBaseURL: false)
        else { return self }
        components.scheme = scheme.lowercased()
        return components.url ?? self
    }

    /// The port, or the scheme's default when the URL names none.
    private var effectivePort: Int? {
        if let port { return port }
        switch scheme?.lowercased() {
        case "http": return 80
        case "https": return 443
        default: return nil
        }
    }
}
