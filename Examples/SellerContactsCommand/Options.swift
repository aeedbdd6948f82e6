import Foundation

/// The command line of `seller-contacts`.
public struct Options: Sendable, Equatable {
    /// Load from this URL instead of the bundled contacts.
    public var url: URL?
    /// Give up on an http(s) URL after this long without data.
    public var timeout: Duration = .seconds(30)
    /// Print the help and exit.
    public var showHelp = false

    /// The defaults: the bundled contacts.
    public init() {}

    /// The help text.
    public static let help = """
        USAGE: seller-contacts [--url URL] [--timeout SECONDS]

        Loads a seller's contacts and prints each state of the loader as it happens
        (loading, then success, empty or error), then the contacts as a table.

        OPTIONS:
          --url URL            Load from a file:// or http(s):// URL instead of the
                               contacts bundled with the example.
          --timeout SECONDS    Give up on an http(s) URL after this many seconds
                               without data (default: 30).
          -h, --help           Show this help.

        EXIT STATUS:
          0 when the contacts loaded (or there were none), 1 when loading failed
          (the error is printed on standard error), 64 for a bad command line.
        """

    /// Parses `arguments` (without the program name).
    ///
    /// - Throws: ``UsageError`` naming the argument that is wrong.
    public static func parse(_ arguments: some Sequence<String>) throws -> Options {
        var options = Options()
        var remaining = Array(arguments)[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help":
                options.showHelp = true
            case "--url":
                let value = try value(after: argument, in: &remaining)
                guard let url = URL(string: value), url.scheme != nil else {
                    throw UsageError(message: "--url needs an absolute URL such as file:///tmp/contacts.json, got '\(value)'")
                }
                options.url = url
            case "--timeout":
                let value = try value(after: argument, in: &remaining)
                guard let seconds = Double(value), seconds > 0 else {
                    throw UsageError(message: "--timeout needs a positive number of seconds, got '\(value)'")
                }
                options.timeout = .milliseconds(Int64(seconds * 1000))
            default:
                throw UsageError(message: "unknown argument '\(argument)'")
            }
        }
        return options
    }

    private static func value(after option: String, in remaining: inout ArraySlice<String>) throws -> String {
        guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
            throw UsageError(message: "\(option) needs a value")
        }
        return value
    }
}

/// A command line that cannot be run, with what is wrong in it.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    /// What is wrong.
    public let message: String
    /// The message.
    public var description: String { message }
}
