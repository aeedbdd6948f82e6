import Foundation

extension URL {
    /// The URL as text that is safe to show, log or store as a key: without user-info
    /// (`alice:s3cr3t@`), with the value of every query item whose name looks secret masked as
    /// `***`, and with a fragment (`#access_token=…`) masked whole as `#***`.
    ///
    /// A name looks secret when it contains, in any case, one of ``secretQueryNameParts``:
    /// `token`, `key`, `pass` (`password`, `passwd`), `pwd`, `secret`, `signature`, `sig`,
    /// `auth`, `session`, `credential`, `jwt`, `bearer`.
    ///
    /// ```swift
    /// URL(string: "https://alice:pw@api.example.com/v1?api_key=abc&page=2#t=1")!.redactedForDisplay
    /// // "https://api.example.com/v1?api_key=***&page=2#***"
    /// ```
    ///
    /// Every ``APIError`` message names its URL this way. Two URLs that differ only in what is
    /// masked have the same redacted form.
    public var redactedForDisplay: String {
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: true) else {
            return "<a URL that cannot be shown>"
        }
        components.user = nil
        components.password = nil
        if let fragment = components.percentEncodedFragment, !fragment.isEmpty {
            components.percentEncodedFragment = "***"
        }
        if let items = components.percentEncodedQueryItems {
            components.percentEncodedQueryItems = items.map { item in
                guard item.value != nil, Self.looksSecret(item.name) else { return item }
                return URLQueryItem(name: item.name, value: "***")
            }
        }
        return components.string ?? "<a URL that cannot be shown>"
    }

    /// The parts of a query item's name that make its value secret.
    public static let secretQueryNameParts = [
        "token", "key", "pass", "pwd", "secret", "signature", "sig", "auth", "session", "credential", "jwt",
        "bearer",
    ]

    private static func looksSecret(_ name: String) -> Bool {
        let name = (name.removingPercentEncoding ?? name).lowercased()
        return secretQueryNameParts.contains { name.contains($0) }
    }
}
