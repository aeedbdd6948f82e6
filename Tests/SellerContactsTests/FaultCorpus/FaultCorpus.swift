import Foundation
import Testing

/// The standing fault corpus: hostile and broken inputs for `APIClient`, `seller-contacts` and
/// the SQLite store. Each must end in one clear line naming what failed and where, with the
/// right exit status, no crash, no hang, and no good data lost.
///
/// The quick part runs in every `swift test`. The slow part (waits that last a busy timeout,
/// 100 kills of a syncing process) runs when `CLK_FULL_FAULT_CORPUS=1`, as `.ci/run` sets it.
enum FaultCorpus {
    /// Whether the slow part runs.
    static let isFull = ProcessInfo.processInfo.environment["CLK_FULL_FAULT_CORPUS"] == "1"

    /// The trait that keeps a slow test to full runs.
    static let fullOnly = ConditionTrait.enabled(
        if: isFull, "slow: runs with CLK_FULL_FAULT_CORPUS=1 (as .ci/run sets it)")
}

/// Checks that a command failed with one clear line on standard error.
///
/// - Parameters:
///   - result: What the command printed and returned.
///   - status: The exit status it must have returned.
///   - mentioning: Text the error line must hold (the URL or path, what failed).
func expectOneClearErrorLine(
    _ result: CommandResult, status: Int32, mentioning: [String], _ comment: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(result.status == status, "\(comment): exit status", sourceLocation: sourceLocation)
    let lines = result.errors.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == 1, "\(comment): one error line, got \(lines)", sourceLocation: sourceLocation)
    #expect(result.errors.hasPrefix("seller-contacts: "), "\(comment)", sourceLocation: sourceLocation)
    #expect(
        !result.errors.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(comment): no control characters",
        sourceLocation: sourceLocation)
    for text in mentioning {
        #expect(
            result.errors.contains(text), "\(comment): names \(text) in \(result.errors)",
            sourceLocation: sourceLocation)
    }
}

/// Checks that a command given a damaged file either showed what it still reads (its output
/// holds one of `shown`, and its standard error no control character) or failed with one
/// clear line naming `path`. Returns whether it failed.
@discardableResult
func expectShownOrOneClearErrorLine(
    _ result: CommandResult, shown: [String], naming path: String, _ comment: String,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    guard result.status != 0 else {
        #expect(
            shown.contains { result.output.contains($0) }, "\(comment): \(result.output)",
            sourceLocation: sourceLocation)
        #expect(
            !result.errors.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(comment)",
            sourceLocation: sourceLocation)
        return false
    }
    expectOneClearErrorLine(result, status: 1, mentioning: [path], comment, sourceLocation: sourceLocation)
    return true
}
