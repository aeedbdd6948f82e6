import ContentLoadingSupport
import Foundation

/// Where the command writes: standard output and error, or a capture in tests.
public struct Console: Sendable {
    /// Writes text to standard output, as is (no newline added).
    public var write: @Sendable (String) -> Void
    /// Writes text to standard error, as is.
    public var writeError: @Sendable (String) -> Void
    /// Whether standard output is a terminal (a spinner is shown only there).
    public var isTerminal: Bool

    /// Creates a console from its parts.
    public init(
        write: @escaping @Sendable (String) -> Void, writeError: @escaping @Sendable (String) -> Void, isTerminal: Bool
    ) {
        self.write = write
        self.writeError = writeError
        self.isTerminal = isTerminal
    }

    /// The process's standard output and error. A write that fails (a full disk, a closed
    /// pipe) does not stop the command: the first failure is kept in ``outputFailure``, for
    /// the command to exit with an error.
    public static var standard: Console {
        Console(
            write: { write($0, to: .standardOutput, named: "standard output") },
            writeError: { write($0, to: .standardError, named: "standard error") },
            isTerminal: isatty(STDOUT_FILENO) == 1
        )
    }

    /// The first write to standard output or error that failed, as a message naming it.
    public static var outputFailure: String? { failure.withLock { $0 } }

    private static let failure = Locked<String?>(nil)

    private static func write(_ text: String, to handle: FileHandle, named name: String) {
        do {
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            failure.withLock { $0 = $0 ?? "cannot write to \(name): \(Self.reason(error))" }
        }
    }

    /// The system's words for `error` ("No space left on device").
    private static func reason(_ error: any Error) -> String {
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain, let text = strerror(Int32(error.code)) { return String(cString: text) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
            let text = strerror(Int32(underlying.code))
        {
            return String(cString: text)
        }
        return error.localizedDescription
    }

    /// `status`, or, when a write to standard output or error failed, 74 (`EX_IOERR`) after
    /// saying so on standard error (as far as it can be written).
    public static func exitStatus(_ status: Int32) -> Int32 {
        guard let failure = outputFailure else { return status }
        try? FileHandle.standardError.write(
            contentsOf: Data(
                "\(CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "command"): \(failure)\n"
                    .utf8))
        return 74
    }
}
