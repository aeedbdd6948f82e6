import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ends this process as soon as the test process that started it is gone.
///
/// NB: the modes that run until their test kills them (`pages`, `outbox`, `outbox-replay`, and a
/// transaction held open) ran on when the test process ended first (stopped by hand, crashed,
/// or ended at a time bound), each keeping a core busy: two of them made a later CI run on the
/// machine so slow that a suite ran past its time limit. The check is a poll of the parent's
/// process id, which changes when the parent goes (the orphan is given to another process).
func exitWhenOrphaned() {
    let parent = getppid()
    Thread.detachNewThread {
        while getppid() == parent { usleep(200_000) }
        _exit(0)
    }
}
