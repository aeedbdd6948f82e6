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
        let environment = ProcessInfo.processInfo.environment
        if environment["CLK_FULL_FAULT_CORPUS"] == "1" { return full }
        if environment["CLK_FEWER_RANDOM_RUNS"] == "1" { return max(10, usual / 10) }
        return usual
    }
}
