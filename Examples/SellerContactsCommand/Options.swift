import ContentLoadingNetworking
import ContentLoadingRepository
import Foundation
import SellerContacts

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
    /// Keep the contacts in a keyed cache at this path (the source URL, redacted, is the key).
    public var cachePath: String?
    /// With a cache: whether and when to fetch.
    public var policy: CachePolicy = .returnCacheElseLoad
    /// With a cache: show only contacts younger than this, fetching (and waiting) when the
    /// cached ones are older (`freshValue(for:maxAge:)`); `nil`: read with ``policy``.
    public var maxAge: Duration?
    /// With a cache and an http(s) URL: a phone number to change, kept in the cache's file
    /// until the server confirms it (`PUT URL/ORDER`).
    public var edit: PhoneEdit?
    /// How many times a transient failure (a timeout, a lost connection, HTTP 408, 429 or 5xx
    /// but 501) is tried again.
    public var retries = 0
    /// Headers sent with every http(s) request (`Authorization: Bearer …`), in the order
    /// given. Their values are never printed.
    public var headers: [RequestHeader] = []
    /// Print the help and exit.
    public var showHelp = false

    /// The defaults: the bundled contacts.
    public init() {}

    /// The help text.
    public static let help = """
        USAGE: seller-contacts [--url URL] [--timeout SECONDS] [--deadline SECONDS] [--retries N]
                              [--header 'NAME: VALUE']...
                              [--database PATH [--offline]]
                              [--cache PATH [--policy POLICY | --max-age SECONDS]
                                            [--edit ORDER --phone TEXT]]

        Loads a seller's contacts and prints each state of the loader as it happens
        (loading, then success, empty or error), then the contacts as a table.

        With --database the contacts are shown from a local SQLite database, the single
        source of truth: first what it holds, then, after a sync from the URL, what the
        sync wrote. When the sync fails the stored contacts stay shown and the error is
        reported.

        With --cache the contacts are read through a keyed cache (memory, then the
        SQLite file at PATH; the key is the source URL without its user-info, secret
        query values and fragment, so no credential is stored): each value is printed with
        where it came from (memory, disk, remote) and its age. A fetch sends the ETag
        stored with the cached value, so a server whose contacts have not changed answers
        "not modified" and nothing is downloaded again.

        With --cache, edits survive: --edit ORDER --phone TEXT changes a contact's
        phone at once, keeps the change in the cache's file and sends it to the
        server as PUT URL/ORDER, with the contact's JSON as the body, its ETag as
        If-Match and an Idempotency-Key that stays the same until the server
        confirms it. A change the server cannot take now (it is down) stays
        pending: the contacts show it, the command says how many changes are not
        sent yet, and every later --cache run with that URL sends it. A
        server that changed the contact since (a 412, or a GET URL/ORDER just
        before the PUT of a contact that came in the list) wins: the edit is
        rolled back.

        OPTIONS:
          --url URL            Load from a file:// or http(s):// URL instead of the
                               contacts bundled with the example.
          --timeout SECONDS    Give up on an http(s) URL after this many seconds
                               without data (default: 30; 0.001 to 86400).
          --deadline SECONDS   Give up on an http(s) URL after this many seconds in
                               all, however steadily data arrives (default: 120;
                               0.001 to 86400).
          --retries N          Try a failed load again up to N times (0 to 10; default
                               0), after a timeout, a lost connection or HTTP 408,
                               429, 500, 502, 503 or 504, waiting longer each time
                               (at least what a Retry-After asks). Each attempt is
                               shown.
          --header 'NAME: VALUE'
                               Send this header with every http(s) request, e.g.
                               'Authorization: Bearer TOKEN' (repeatable). Values
                               are never printed, not even in errors, and not
                               sent on a redirect to another host or port.
          --database PATH      Keep the contacts in the SQLite database at PATH
                               (created when missing) and show them from it.
          --offline            With --database: show the stored contacts, no sync.
          --cache PATH         Read the contacts through a cache kept in PATH.
          --policy POLICY      With --cache: prefer (the cached value, fetched on a
                               miss; the default), require (the cached value or
                               "no cached value", never a request), ignore (always
                               fetch), then-load (the cached value, then the
                               fetched one), network-first (fetch; the cached value
                               if the fetch fails).
          --max-age SECONDS    With --cache: show the cached contacts only when they
                               are younger than this; else fetch and show the
                               fetched ones (a failed fetch is an error: the older
                               contacts are not shown).
          --edit ORDER         With --cache and an http(s) --url: change the phone
                               of the stored contact with this order.
          --phone TEXT         With --edit: the new phone number ('' removes it).
          -h, --help           Show this help.

        EXIT STATUS:
          0 when the contacts loaded (or there were none), 1 when loading failed
          (the error is printed on standard error), 64 for a bad command line.
          With --database: 0 when contacts were shown from the database, even if the
          sync failed; 1 when there was nothing to show.
          With --cache: 0 when a value was shown or none is cached (require); 1 when
          nothing could be shown. With --edit: 0 once the edit is stored (sent or not
          yet), 1 when it could not be (no such contact stored).
        """

    /// Parses `arguments` (without the program name).
    ///
    /// - Throws: ``UsageError`` naming the argument that is wrong.
    public static func parse(_ arguments: some Sequence<String>) throws -> Options {
        var options = Options()
        var remaining = Array(arguments)[...]
        var policyGiven = false
        var editOrder: Int?
        var phone: String??
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help":
                options.showHelp = true
            case "--url":
                let value = try value(after: argument, in: &remaining)
                guard let url = URL(string: value), url.scheme != nil else {
                    throw UsageError(
                        message:
                            "--url needs an absolute URL such as file:///tmp/contacts.json, got '\(shown(value))'")
                }
                options.url = url
            case "--timeout":
                options.timeout = try seconds(after: argument, in: &remaining)
            case "--deadline":
                options.deadline = try seconds(after: argument, in: &remaining)
            case "--retries":
                let value = try value(after: argument, in: &remaining)
                guard let retries = Int(value), (0...10).contains(retries) else {
                    throw UsageError(message: "--retries needs a whole number from 0 to 10, got '\(value)'")
                }
                options.retries = retries
            case "--header":
                options.headers.append(try RequestHeader(parsing: value(after: argument, in: &remaining)))
            case "--database":
                options.databasePath = try value(after: argument, in: &remaining)
            case "--offline":
                options.offline = true
            case "--cache":
                options.cachePath = try value(after: argument, in: &remaining)
            case "--edit":
                let value = try value(after: argument, in: &remaining)
                guard let order = Int(value) else {
                    throw UsageError(message: "--edit needs a contact's order (a whole number), got '\(shown(value))'")
                }
                editOrder = order
            case "--phone":
                phone = try phoneValue(after: argument, in: &remaining)
            case "--max-age":
                options.maxAge = try seconds(after: argument, in: &remaining)
            case "--policy":
                let value = try value(after: argument, in: &remaining)
                guard let policy = policyNames[value] else {
                    let names = policyNames.keys.sorted().joined(separator: ", ")
                    throw UsageError(message: "--policy needs one of \(names), got '\(value)'")
                }
                options.policy = policy
                policyGiven = true
            default:
                throw UsageError(message: "unknown argument '\(shown(argument))'")
            }
        }
        if options.offline && options.databasePath == nil {
            throw UsageError(message: "--offline needs --database PATH: there is nothing stored to show without one")
        }
        if options.databasePath != nil && options.cachePath != nil {
            throw UsageError(message: "--database and --cache are two ways to keep the contacts; choose one")
        }
        if policyGiven && options.cachePath == nil {
            throw UsageError(message: "--policy needs --cache PATH: it says how to use the cache")
        }
        if options.maxAge != nil && options.cachePath == nil {
            throw UsageError(message: "--max-age needs --cache PATH: it says how old a cached value may be")
        }
        if options.maxAge != nil && policyGiven {
            throw UsageError(message: "--max-age and --policy are two ways to read the cache; choose one")
        }
        options.edit = try edit(order: editOrder, phone: phone, options: options)
        return options
    }

    /// The edit `--edit ORDER --phone TEXT` asks for, checked against the other options.
    private static func edit(order: Int?, phone: String??, options: Options) throws -> PhoneEdit? {
        guard let order else {
            if phone != nil { throw UsageError(message: "--phone needs --edit ORDER: it says which contact") }
            return nil
        }
        guard let phone else { throw UsageError(message: "--edit needs --phone TEXT: the new phone number") }
        guard options.cachePath != nil else {
            throw UsageError(message: "--edit needs --cache PATH: the edit is kept there until the server has it")
        }
        guard let scheme = options.url?.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw UsageError(message: "--edit needs an http(s) --url: the edit is sent as PUT URL/ORDER")
        }
        return PhoneEdit(order: order, phone: phone)
    }

    /// The text after `--phone`: any text, `''` for none.
    private static func phoneValue(after option: String, in remaining: inout ArraySlice<String>) throws -> String? {
        guard let value = remaining.popFirst() else { throw UsageError(message: "\(option) needs a value") }
        return value.isEmpty ? nil : value
    }

    /// The `--policy` names.
    static let policyNames: [String: CachePolicy] = [
        "prefer": .returnCacheElseLoad, "require": .returnCacheDontLoad, "ignore": .reloadIgnoringCache,
        "then-load": .returnCacheThenLoad, "network-first": .loadElseReturnCache,
    ]

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

    /// An argument as a message may show it: one that reads as a URL is redacted (no user-info,
    /// secret query values or fragment), every other as given.
    static func shown(_ argument: String) -> String {
        guard argument.contains(where: { "@?#:".contains($0) }), let url = URL(string: argument) else {
            return argument
        }
        return url.redactedForDisplay
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
