/// The time limit of the suites, in minutes: a bound on a hang, never on speed. Five minutes;
/// ten in the fault corpus step (`CLK_FULL_FAULT_CORPUS=1`), whose randomized suites make
/// their full counts side by side, CPU-bound (about 400 s of CPU together; on a machine half
/// as fast as usual one passed 3 minutes, with no test stuck); four in the sanitizer steps
/// (`CLK_FEWER_RANDOM_RUNS=1`), which `.ci/run` bounds at 7 minutes a process: there a hung
/// test must fail by name, and its process go on, before the bound ends the whole process
/// without a word (a TSan run was ended so in stop 68). Their runs take about a minute (ASan's,
/// its tests side by side, 72 s on a slow machine; each TSan test alone, a few seconds).
///
/// NB: a limit must outlast the whole run, not the test. A parallel `swift test` starts every
/// test at once and counts each one's time from then, while it waits its turn on the machine's
/// cores: a test that takes 0.03 s alone "took" 57 s of a 98 s run here and trivial ones 47 s;
/// under 1 minute, that one failed a CI run and passed another at 60.4 s. A hang still ends the
/// run, within this bound.
public enum HangLimit {
    /// The suites' time limit, in minutes.
    public static var minutes: Int { RandomizedRuns.isFull ? 10 : RandomizedRuns.areFew ? 4 : 5 }
}
