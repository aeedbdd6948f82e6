import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child started with `posix_spawn`: its pid and the test's ends of its three pipes.
struct SpawnedChild {
    let pid: pid_t
    /// The write end of the child's standard input.
    let input: Int32
    /// The read end of the child's standard output (end of file at once when it is discarded).
    let output: Int32
    /// The read end of the child's standard error.
    let errors: Int32

    /// Held from creating a child's pipes until it is started: another test starting a child
    /// at the same moment must not inherit this child's pipe ends (it would hold its standard
    /// input open). This helper is the only code in the tests that starts processes.
    private static let spawning = NSLock()

    init(_ path: String, arguments: [String], discardingOutput: Bool) throws {
        Self.spawning.lock()
        defer { Self.spawning.unlock() }
        let stdin = try Self.pipe(), stdout = try Self.pipe(), stderr = try Self.pipe()
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t?
            let environment = _NSGetEnviron().pointee
        #else
            var actions = posix_spawn_file_actions_t()
            let environment = environ
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin.read, 0)
        if discardingOutput {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        } else {
            posix_spawn_file_actions_adddup2(&actions, stdout.write, 1)
        }
        posix_spawn_file_actions_adddup2(&actions, stderr.write, 2)

        // NB: the child starts with no blocked signals and default handlers, whatever the
        // spawning thread had (the pool's threads block signals; a child would inherit that and
        // ignore the SIGTERM of `stop()`).
        #if canImport(Darwin)
            var attributes: posix_spawnattr_t?
        #else
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, environment)
        for descriptor in [stdin.read, stdout.write, stderr.write] { close(descriptor) }
        guard result == 0 else {
            for descriptor in [stdin.write, stdout.read, stderr.read] { close(descriptor) }
            throw ChildProcessError(reason: "cannot run \(path): \(String(cString: strerror(result)))")
        }
        self.pid = pid
        input = stdin.write
        output = stdout.read
        errors = stderr.read
    }

    /// A pipe whose ends are closed in every child started later (the child's own copies, made
    /// by `dup2`, stay open).
    private static func pipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        let result = Foundation.pipe(&ends)
        for end in ends where result == 0 { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        guard result == 0 else {
            throw ChildProcessError(reason: "cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        return (ends[0], ends[1])
    }
}

/// A child's exit and its peak memory, recorded by a thread that waits for it with `wait4`.
final class ChildExit: @unchecked Sendable {
    private let condition = NSCondition()
    private var recorded: Int32?
    private var peakResident: Int?
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(pid: pid_t) {
        // NB: `waitpid` blocks, so it runs on a thread of its own, not the pool's.
        Thread.detachNewThread { [self] in
            var status: Int32 = 0
            var usage = rusage()
            while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
            // The exit code when the child exited, the signal's number when a signal ended it.
            let signal = status & 0x7f
            // NB: Linux counts `ru_maxrss` in KiB.
            record(signal == 0 ? (status >> 8) & 0xff : signal, peakResident: Int(usage.ru_maxrss) * 1_024)
        }
    }

    /// The exit status, `nil` while the child runs.
    var status: Int32? {
        condition.lock()
        defer { condition.unlock() }
        return recorded
    }

    /// Blocks until the child exited.
    func wait() {
        condition.lock()
        while recorded == nil { condition.wait() }
        condition.unlock()
    }

    /// Returns when the child exited.
    func exited() async {
        await withCheckedContinuation { continuation in
            condition.lock()
            if recorded == nil {
                waiters.append(continuation)
                condition.unlock()
            } else {
                condition.unlock()
                continuation.resume()
            }
        }
    }

    /// The most memory the child held resident, in bytes; `nil` while it runs.
    var peakResidentBytes: Int? {
        condition.lock()
        defer { condition.unlock() }
        return peakResident
    }

    private func record(_ status: Int32, peakResident: Int) {
        condition.lock()
        recorded = status
        self.peakResident = peakResident
        let resumed = waiters
        waiters = []
        condition.broadcast()
        condition.unlock()
        for waiter in resumed { waiter.resume() }
    }
}
