import Foundation

extension Duration {
    /// The age at `date` of something written at `writtenAt`, to the millisecond: 0 for one
    /// written after `date` (the clock went back); at most about 290,000 years.
    @inlinable static func age(of writtenAt: Date, at date: Date) -> Duration {
        // NB: the dates may come from a file: clamped before the conversion to an integer.
        let milliseconds = (date.timeIntervalSince(writtenAt) * 1_000).rounded()
        guard milliseconds > 0 else { return .zero }
        return .milliseconds(milliseconds < 9e15 ? Int64(milliseconds) : 9_000_000_000_000_000)
    }
}
