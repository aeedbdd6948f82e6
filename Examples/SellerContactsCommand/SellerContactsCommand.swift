import ContentLoading
import ContentLoadingNetworking
import ContentLoadingRepository
import ContentLoadingSupport
import ExampleSupport
import SellerContacts

/// The `seller-contacts` command: loads contacts through ``SellerContactsLoader`` and prints
/// each state as it happens, then the contacts as a table.
///
/// `main.swift` only calls ``main(arguments:console:)``; tests call it with a captured console.
@MainActor
public enum SellerContactsCommand {
    /// Runs the command and returns its exit status: 0 for success or empty, 1 for an error,
    /// 64 for a bad command line.
    public static func main(arguments: some Sequence<String>, console: Console = .standard) async -> Int32 {
        let options: Options
        do {
            options = try Options.parse(arguments)
        } catch {
            console.writeError("seller-contacts: \(error)\nRun 'seller-contacts --help' for the options.\n")
            return 64
        }
        if options.showHelp {
            console.write(Options.help + "\n")
            return 0
        }
        return await run(options, console: console)
    }

    /// Loads with `options` and reports on `console`.
    public static func run(_ options: Options, console: Console) async -> Int32 {
        let urlStore: any SellerContactsURLStore =
            options.url.map(FixedSellerContactsURLStore.init) ?? BundledSellerContactsURLStore()
        let limits = TransportLimits(idleTimeout: options.timeout, deadline: options.deadline)
        let adapter = options.headers.isEmpty ? nil : RequestHeaderAdapter(headers: options.headers)
        let client = APIClient(
            transport: .standard(limits: limits), adapter: adapter, onExchange: reportingWrites(to: console))
        let apiManager = SellerContactsAPIManager(urlStore: urlStore, client: client)
        console.write("source: \(urlStore.sellerContactsURL.redactedForDisplay.escapingControlCharacters)\n")
        let retry = retryPolicy(retries: options.retries, deadline: options.deadline, console: console)
        if let path = options.cachePath {
            return await runCached(
                cache: path, read: options.maxAge.map { .fresh(maxAge: $0) } ?? .events(options.policy),
                source: urlStore.sellerContactsURL, apiManager: apiManager, retry: retry, edit: options.edit,
                console: console)
        }
        if let path = options.databasePath {
            return await runOfflineFirst(
                database: path, apiManager: apiManager, offline: options.offline, retry: retry, console: console)
        }
        let loader = SellerContactsLoader(apiManager: apiManager, retry: retry)
        return await report(loader, console: console)
    }

    /// Up to `retries` more attempts after a transient failure, each shown as it happens:
    /// "retry: attempt 1 of 3 failed (HTTP 503 from …); trying again in 0.4 s", all of them
    /// within `deadline`.
    static func retryPolicy(retries: Int, deadline: Duration, console: Console) -> RetryPolicy {
        RetryPolicy(
            attempts: retries + 1, initialDelay: .milliseconds(500), maximumDelay: .seconds(10), jitter: .equal,
            deadline: deadline
        )
        .onRetry { retry in
            let error = retry.error.escapedDescription
            console.write(
                "retry: attempt \(retry.attempt) of \(retry.attempts) failed (\(error)); "
                    + "trying again in \(spokenSeconds(retry.delay))\n")
        }
    }

    /// A duration with one decimal: "12.5 s", or under a tenth of a second "1.0 ms" (a
    /// `--max-age 0.001` was "0.0 s").
    nonisolated static func spokenSeconds(_ duration: Duration) -> String {
        let seconds = duration.seconds
        guard seconds == 0 || abs(seconds) >= 0.1 else { return "\(Double((seconds * 10_000).rounded()) / 10) ms" }
        return "\(Double((seconds * 10).rounded()) / 10) s"
    }

    /// Refreshes `loader`, prints its transitions until it settles, then the outcome.
    static func report(_ loader: SellerContactsLoader, console: Console) async -> Int32 {
        let states = loader.states
        loader.refresh()
        switch await settledState(states, console: console) {
        case .success(let contacts):
            console.write("state: success (\(contacts.count) contact\(contacts.count == 1 ? "" : "s"))\n\n")
            console.write(ContactsTable.render(contacts))
            return 0
        case .empty:
            console.write("state: empty (the seller has no contacts)\n")
            return 0
        case .error(let error, _):
            console.write("state: error\n")
            reportError(error, console: console)
            return 1
        case .unloaded, .loading, nil:
            return 1
        }
    }

    /// Prints `error` on standard error as one line: control characters (from a server's
    /// body, a file name) escaped, so it can neither forge a line nor drive the terminal.
    static func reportError(_ error: any Error, context: String = "", console: Console) {
        console.writeError("seller-contacts: \(context)\(error.escapedDescription)\n")
    }

    /// Prints the transitions up to the next settled state (with a spinner on a terminal while
    /// loading) and returns it, or `nil` if the stream ended. Each call goes on where the
    /// previous one stopped reading.
    static func settledState(
        _ states: AsyncStream<ContentLoadingState<[SellerContacts]>>, console: Console
    ) async -> ContentLoadingState<[SellerContacts]>? {
        var spinner: Spinner?
        for await state in states {
            await spinner?.stop()
            spinner = nil
            switch state {
            case .unloaded:
                continue
            case .loading:
                console.write("state: loading\n")
                if console.isTerminal { spinner = Spinner(console: console, label: "loading…") }
            default:
                return state
            }
        }
        return nil
    }
}
