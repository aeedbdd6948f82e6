import Foundation

extension Date {
    /// Whether `seconds` since 1970 is a time the kit's files keep: finite, within ±3,000 years
    /// of 1970. A stored time outside it is read as corrupt (the disk tier) or as none (the
    /// store's last sync), and none is written.
    static func isStorable(secondsSince1970 seconds: Double) -> Bool { seconds.isFinite && abs(seconds) < 1e11 }
}
