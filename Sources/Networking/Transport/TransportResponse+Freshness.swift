import ContentLoading
import Foundation

extension TransportResponse {
    /// What the response's `Cache-Control` and `Expires` say about how long its copy is fresh
    /// and whether it may be stored; `nil` when they say nothing (RFC 9111).
    ///
    /// - `no-store`: `Freshness.isNoStore`.
    /// - `no-cache` (unqualified): stale at once, so every read revalidates.
    /// - `max-age=N`: fresh for N seconds; a value that is not a number of seconds is stale at once.
    /// - Otherwise `Expires` less the response's `Date` (the time now when it has none); an
    ///   `Expires` that is not a date (`0`, say) is stale at once.
    /// - Less its `Age`: how long a shared cache (a CDN) had held it, which it was fresh for
    ///   already (RFC 9111, section 4.2.3). An `Age` that is not a number of seconds is ignored.
    ///
    /// `s-maxage`, `private` and `public` are for shared caches and are ignored.
    public var freshness: Freshness? {
        let directives = Self.directives(in: header("Cache-Control") ?? "")
        var freshness = Freshness(isNoStore: directives.keys.contains("no-store"))
        let lifetime: Duration?
        if let noCache = directives["no-cache"], noCache == nil {
            lifetime = .zero
        } else if let maxAge = directives["max-age"] {
            lifetime = maxAge.flatMap(Self.deltaSeconds) ?? .zero
        } else if let expires = header("Expires") {
            let date = header("Date").flatMap(RetryAfter.httpDate) ?? Date()
            lifetime = RetryAfter.httpDate(expires).map { RetryAfter.duration(from: date, to: $0) } ?? .zero
        } else {
            lifetime = nil
        }
        if let lifetime { freshness.maxAge = max(.zero, lifetime - age) }
        return freshness == Freshness() ? nil : freshness
    }

    /// The response's `Age` (the first of a list, as RFC 9111, section 5.1 asks); zero when it
    /// has none or it is not a number of seconds.
    private var age: Duration {
        let first = header("Age")?.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) }
        return first.flatMap(Self.deltaSeconds) ?? .zero
    }

    /// The directives of a `Cache-Control` value, names lowercased, each with its argument
    /// (quotes removed) or `nil`.
    static func directives(in value: String) -> [String: String?] {
        var directives: [String: String?] = [:]
        for part in value.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = pair.first?.lowercased(), !name.isEmpty else { continue }
            // NB: a directive given twice keeps its first value (RFC 9111, section 4.2.1).
            guard directives[name] == nil else { continue }
            let argument = pair.count > 1 ? pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : nil
            directives[name] = .some(argument)
        }
        return directives
    }

    /// `text` as delta-seconds: digits only; more than 2³¹ is 2³¹ (RFC 9111, section 1.2.2).
    private static func deltaSeconds(_ text: String) -> Duration? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return .seconds(Int64(text).map { min($0, 1 << 31) } ?? 1 << 31)
    }

}
