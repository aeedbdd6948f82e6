import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process a test starts, reads a line from, and stops or kills.
///
/// Its standard input is a pipe the test holds: a child that reads it until end of file exits
/// when the test process does. The child is started with `posix_spawn` and reaped by a thread
/// of its own with `waitpid`, so nothing in the test process outlives it (Foundation's
/// `Process` keeps itself alive until its run loop sees the exit, which a killed child can
/// outrun, and LeakSanitizer reports it).
public final class ChildProcess: @unchecked Sendable {
    /// The process id.
    public let pid: pid_t
    private let exit: ChildExit
    private let input: FileHandle
    private let output: FileHandle
    private let errors: FileHandle
    private var buffered = Data()

    /// Starts `executable` with `arguments`.
    ///
    /// - Parameter discardingOutput: Sends its standard output to `/dev/null`, for a child that
    ///   writes more than a pipe holds while nobody reads it (it would block).
    public init(_ executable: URL, arguments: [String], discardingOutput: Bool = false) throws {
        let spawned = try SpawnedChild(executable.path, arguments: arguments, discardingOutput: discardingOutput)
        pid = spawned.pid
        input = FileHandle(fileDescriptor: spawned.input, closeOnDealloc: true)
        output = FileHandle(fileDescriptor: spawned.output, closeOnDealloc: true)
        errors = FileHandle(fileDescriptor: spawned.errors, closeOnDealloc: true)
        exit = ChildExit(pid: spawned.pid)
    }

    deinit { stop() }

    /// Whether the child is still running.
    public var isRunning: Bool { exit.status == nil }

    /// The most memory the child held resident, in bytes, once it has exited (Linux).
    public var peakResidentBytes: Int? { exit.peakResidentBytes }

    /// Reads the child's standard output up to the next newline and returns that line.
    ///
    /// - Throws: ``ChildProcessError`` with the child's standard error when it exits first.
    public func readLine() throws -> String {
        while !buffered.contains(UInt8(ascii: "\n")) {
            let chunk = output.availableData
            guard !chunk.isEmpty else {
                let stderr = String(decoding: errors.readDataToEndOfFile(), as: UTF8.self)
                throw ChildProcessError(reason: "the child exited before writing a line: \(stderr)")
            }
            buffered.append(chunk)
        }
        let newline = buffered.firstIndex(of: UInt8(ascii: "\n"))!
        let line = String(decoding: buffered[buffered.startIndex..<newline], as: UTF8.self)
        buffered = Data(buffered[buffered.index(after: newline)...])
        return line
    }

    /// Waits until the child exits and returns its exit status (the signal's number when a
    /// signal ended it), or kills it with SIGKILL and returns `nil` when it is still running
    /// after `limit`: a child that hangs fails its test instead of hanging the suite.
    public func exitStatus(within limit: Duration) async -> Int32? {
        let exit = exit
        let exited = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await exit.exited()
                return true
            }
            group.addTask {
                // NB: a time limit, not synchronisation: the child's exit is the awaited event.
                try? await Task.sleep(for: limit)
                return false
            }
            let first = await group.next() ?? false
            if !first { self.kill() }
            group.cancelAll()
            await group.waitForAll()
            return first
        }
        return exited ? exit.status : nil
    }

    /// Everything the child wrote to standard output that ``readLine()`` has not returned, up
    /// to its end (call after the child exited).
    public func remainingOutput() -> String {
        buffered.append(output.readDataToEndOfFile())
        defer { buffered = Data() }
        return String(decoding: buffered, as: UTF8.self)
    }

    /// Everything the child wrote to standard error (call after the child exited).
    public func remainingErrors() -> String {
        String(decoding: errors.readDataToEndOfFile(), as: UTF8.self)
    }

    /// Kills the child with SIGKILL (no chance to clean up) and waits for it to exit.
    public func kill() {
        guard isRunning else { return }
        _ = Foundation.kill(pid, SIGKILL)
        exit.wait()
    }

    /// Closes its standard input, terminates it and waits for it to exit.
    public func stop() {
        guard isRunning else { return }
        try? input.close()
        _ = Foundation.kill(pid, SIGTERM)
        exit.wait()
    }

    /// The directory holding the package's built executables.
    public static var productsDirectory: URL {
        #if os(macOS)
            if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
                return bundle.bundleURL.deletingLastPathComponent()
            }
        #endif
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }
}

/// Why a child process could not be run or read.
public struct ChildProcessError: Error, CustomStringConvertible {
    /// What went wrong.
    public let reason: String
    /// The reason.
    public var description: String { reason }
}
