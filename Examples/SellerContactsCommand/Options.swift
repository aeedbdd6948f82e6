import Foundation

/// The command line of `seller-contacts`.
public struct Options: Sendable, Equatable {
    /// Load from this URL instead of the bundled contacts.
    public var url: URL?
    /// Give up on an http(s) URL after this long without data.
    public var timeout: Duration = .seconds(30)
    /// Give up on an http(s) URL after this long in all, however steadily data arrives.
    public var deadline: Duration = .seconds(120)
    /// Keep the contacts in this SQLite database and show them from it (offline-first).
    public var databasePath: String?
    /// With a database: show the stored contacts without syncing.
    public var offline = false
    /// Print the help and exit.
    public var showHelp = false

    /// The defaults: the bundled contacts.
    public init() {}

    /// The help text.
    public static let help = """
        USAGE: seller-contacts [--url URL] [--timeout SECONDS] [--deadline SECONDS]
                              [--database PATH [--offline]]

        Loads a seller's contacts and prints each state of the loader as it happens
        (loading, then success, empty or error), then the contacts as a table.

        With --database the contacts are shown from a local SQLite database, the single
        source of truth: first what it holds, then, after a sync from the URL, what the
        sync wrote. When the sync fails the stored contacts stay shown and the error is
        reported.

        OPTIONS:
          --url URL            Load from a file:// or http(s):// URL instead of the
                               contacts bundled with the example.
          --timeout SECONDS    Give up on an http(s) URL after this many seconds
                               without data (default: 30; 0.001 to 86400).
          --deadline SECONDS   Give up on an http(s) URL after this many seconds in
                               all, however steadily data arrives (default: 120;
                               0.001 to 86400).
          --database PATH      Keep the contacts in the SQLite database at PATH
                               (created when missing) and show them from it.
          --offline            With --database: show the stored contacts, no sync.
          -h, --help           Show this help.

        EXIT STATUS:
          0 when the contacts loaded (or there were none), 1 when loading failed
          (the error is printed on standard error), 64 for a bad command line.
          With --database: 0 when contacts were shown from the database, even if the
          sync failed; 1 when there was nothing to show.
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
                    throw UsageError(
                        message: "--url needs an absolute URL such as file:///tmp/contacts.json, got '\(value)'")
                }
                options.url = url
            case "--timeout":
                options.timeout = try seconds(after: argument, in: &remaining)
            case "--deadline":
                options.deadline = try seconds(after: argument, in: &remaining)
            case "--database":
                options.databasePath = try value(after: argument, in: &remaining)
            case "--offline":
                options.offline = true
            default:
                throw UsageError(message: "unknown argument '\(argument)'")
            }
        }
        if options.offline && options.databasePath == nil {
            throw UsageError(message: "--offline needs --database PATH: there is nothing stored to show without one")
        }
        return options
    }

    /// The longest time an option takes: one day.
    static let longestDuration = 86_400.0
    /// The shortest: the transports count time in milliseconds.
    static let shortestDuration = 0.001

    /// The number of seconds after `option`, checked: a finite number from
    /// ``shortestDuration`` to ``longestDuration``.
    private static func seconds(after option: String, in remaining: inout ArraySlice<String>) throws -> Duration {
        let value = try value(after: option, in: &remaining)
        let range = "from \(shortestDuration) to \(Int(longestDuration))"
        guard let seconds = Double(value), seconds.isFinite else {
            throw UsageError(message: "\(option) needs a number of seconds \(range), got '\(value)'")
        }
        guard seconds > 0 else {
            throw UsageError(message: "\(option) needs a positive number of seconds \(range), got '\(value)'")
        }
        guard seconds >= shortestDuration else {
            throw UsageError(
                message:
                    "\(option) \(value) is below the 1 ms resolution of the timers; use a number of seconds \(range)")
        }
        guard seconds <= longestDuration else {
            throw UsageError(message: "\(option) \(value) is more than a day; use a number of seconds \(range)")
        }
        return .milliseconds(Int64((seconds * 1_000).rounded()))
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
