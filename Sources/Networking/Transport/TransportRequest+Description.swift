import ContentLoadingSupport
import Foundation

extension TransportRequest: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The headers whose values are never printed (names lowercased): credentials, which an
    /// HTTP transport sends to the request's origin alone.
    public static let secretHeaderNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key",
    ]

    /// The method, the URL without credentials, the headers (secret values replaced) and the
    /// body's size: `PUT https://example.com/contacts/7 [Authorization: <redacted>] (42-byte body)`.
    public var description: String {
        var text = "\(method) \(url.redactedForDisplay)"
        let shown = shownHeaders
        if !shown.isEmpty { text += " [" + shown.map { "\($0.name): \($0.value)" }.joined(separator: ", ") + "]" }
        if let body { text += " (\(body.count)-byte body)" }
        return text.escapingControlCharacters
    }

    /// The same as ``description``: secret header values replaced.
    public var debugDescription: String { description }

    /// What `dump` and debuggers show: the same fields, secret header values replaced.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "method": method, "url": url.redactedForDisplay,
                "headers": shownHeaders.map { "\($0.name): \($0.value)" },
                "body": body.map { "\($0.count) bytes" } as Any, "validators": validators,
            ])
    }

    /// The names of the headers whose values are secret, lowercased: ``secretHeaderNames`` and
    /// the request's ``secretHeaders``.
    var secretHeaderNamesLowercased: Set<String> {
        Self.secretHeaderNames.union(secretHeaders.map { $0.lowercased() })
    }

    /// The headers sorted by name, secret values replaced.
    var shownHeaders: [(name: String, value: String)] {
        let secret = secretHeaderNamesLowercased
        return headers.sorted { $0.key.lowercased() < $1.key.lowercased() }.map { name, value in
            (name, secret.contains(name.lowercased()) ? "<redacted>" : value)
        }
    }
}
