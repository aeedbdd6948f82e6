import Foundation

extension URL {
    /// The URL as text that is safe to show or log: without user-info (`alice:s3cr3t@`), and
    /// with the value of every query item whose name looks secret masked as `***`.
    ///
    /// A name looks secret when it contains, in any case, one of ``secretQueryNameParts``:
    /// `token`, `key`, `password`, `passwd`, `secret`, `signature`, `sig`, `auth`, `session`,
    /// `credential`.
    ///
    /// ```swift
    /// URL(string: "https://alice:pw@api.example.com/v1?api_key=abc&page=2")!.redactedForDisplay
    /// // "https://api.example.com/v1?api_key=***&page=2"
    /// ```
    ///
    /// Every ``APIError`` message names its URL this way.
    public var redactedForDisplay: String {
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: true) else {
            return "<a URL that cannot be shown>"
        }
        components.user = nil
        components.password = nil
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
        "token", "key", "password", "passwd", "secret", "signature", "sig", "auth", "session", "credential",
    ]

    private static func looksSecret(_ name: String) -> Bool {
        let name = (name.removingPercentEncoding ?? name).lowercased()
        return secretQueryNameParts.contains { name.contains($0) }
    }
}
