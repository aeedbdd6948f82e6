import Foundation

/// HTTP's `Retry-After`: a number of seconds, or a date (RFC 9110, section 10.2.3).
enum RetryAfter {
    /// How long `value` asks to wait from `now`; `nil` when it is neither form. A date in the
    /// past asks for no wait.
    static func delay(_ value: String, now: Date) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text) { return seconds >= 0 ? .seconds(seconds) : nil }
        // NB: more seconds than an Int holds is a very long wait, capped by the retry policy.
        if !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) { return .seconds(Int64.max) }
        return httpDate(text).map { duration(from: now, to: $0) }
    }

    /// From `start` to `end`, to the millisecond; zero when `end` is not later.
    static func duration(from start: Date, to end: Date) -> Duration {
        .milliseconds(Int64((max(0, end.timeIntervalSince(start)) * 1_000).rounded()))
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT` (IMF-fixdate, the form servers send).
    static func httpDate(_ text: String) -> Date? {
        // NB: a formatter per call: DateFormatter is not Sendable, and a Retry-After is rare.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}
