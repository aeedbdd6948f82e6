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

    /// The process's standard output and error.
    public static var standard: Console {
        Console(
            write: { FileHandle.standardOutput.write(Data($0.utf8)) },
            writeError: { FileHandle.standardError.write(Data($0.utf8)) },
            isTerminal: isatty(STDOUT_FILENO) == 1
        )
    }
}
