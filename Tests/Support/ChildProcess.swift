import Foundation

/// A child process a test starts, reads a line from, and stops or kills.
///
/// Its standard input is a pipe the test holds: a child that reads it until end of file exits
/// when the test process does.
public final class ChildProcess: @unchecked Sendable {
    private let process: Process
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private var buffered = Data()

    /// Starts `executable` with `arguments`.
    ///
    /// - Parameter discardingOutput: Sends its standard output to `/dev/null`, for a child that
    ///   writes more than a pipe holds while nobody reads it (it would block).
    public init(_ executable: URL, arguments: [String], discardingOutput: Bool = false) throws {
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = discardingOutput ? FileHandle.nullDevice : output
        process.standardError = errors
        do { try process.run() } catch {
            throw ChildProcessError(reason: "cannot run \(executable.path): \(error)")
        }
    }

    deinit { stop() }

    /// Whether the child is still running.
    public var isRunning: Bool { process.isRunning }

    /// The process id.
    public var pid: Int32 { process.processIdentifier }

    /// Reads the child's standard output up to the next newline and returns that line.
    ///
    /// - Throws: ``ChildProcessError`` with the child's standard error when it exits first.
    public func readLine() throws -> String {
        while !buffered.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else {
                let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                throw ChildProcessError(reason: "the child exited before writing a line: \(stderr)")
            }
            buffered.append(chunk)
        }
        let newline = buffered.firstIndex(of: UInt8(ascii: "\n"))!
        let line = String(decoding: buffered[buffered.startIndex..<newline], as: UTF8.self)
        buffered = Data(buffered[buffered.index(after: newline)...])
        return line
    }

    /// Waits until the child exits and returns its exit status, or kills it with SIGKILL and
    /// returns `nil` when it is still running after `limit`: a child that hangs fails its test
    /// instead of hanging the suite.
    public func exitStatus(within limit: Duration) async -> Int32? {
        let process = process
        let exited = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await withCheckedContinuation { continuation in
                    // NB: `waitUntilExit` blocks, so it runs on a thread of its own, not the pool's.
                    Thread.detachNewThread {
                        process.waitUntilExit()
                        continuation.resume()
                    }
                }
                return true
            }
            group.addTask {
                // NB: a time limit, not synchronisation: the child's exit is the awaited event.
                try? await Task.sleep(for: limit)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            if !first { self.kill() }
            await group.waitForAll()
            return first
        }
        return exited ? process.terminationStatus : nil
    }

    /// Everything the child wrote to standard output that ``readLine()`` has not returned, up
    /// to its end (call after the child exited).
    public func remainingOutput() -> String {
        buffered.append(output.fileHandleForReading.readDataToEndOfFile())
        defer { buffered = Data() }
        return String(decoding: buffered, as: UTF8.self)
    }

    /// Everything the child wrote to standard error (call after the child exited).
    public func remainingErrors() -> String {
        String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    /// Kills the child with SIGKILL (no chance to clean up) and waits for it to exit.
    public func kill() {
        guard process.isRunning else { return }
        _ = Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Closes its standard input, terminates it and waits for it to exit.
    public func stop() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
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
