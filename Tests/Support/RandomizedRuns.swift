import Foundation

/// How many runs a randomized suite makes, from the environment `.ci/run` sets for each step.
///
/// - `CLK_FULL_FAULT_CORPUS=1` (the fault corpus step): the full count the issues ask for.
/// - `CLK_FEWER_RANDOM_RUNS=1` (the sanitizer steps): a tenth of the usual count, at least 10.
///   The races a sanitizer looks for are inside each run's code paths, which a few runs go
///   through as well as many; the full counts run in the corpus step and the plain run.
/// - Neither: the usual count, as a plain `swift test` runs it.
public enum RandomizedRuns {
    /// The number of runs for a suite whose full count is `full` and usual count `usual`.
    public static func count(full: Int, usual: Int) -> Int {
        if isFull { return full }
        return areFew ? max(10, usual / 10) : usual
    }

    /// Whether this is the fault corpus step (`CLK_FULL_FAULT_CORPUS=1`).
    static var isFull: Bool { ProcessInfo.processInfo.environment["CLK_FULL_FAULT_CORPUS"] == "1" }

    /// Whether the suites make a tenth of their usual runs: too few for a check that the runs
    /// went through a path at least once (some fetches answered 304), which the other steps
    /// make.
    public static var areFew: Bool {
        ProcessInfo.processInfo.environment["CLK_FEWER_RANDOM_RUNS"] == "1" && !isFull
    }
}
