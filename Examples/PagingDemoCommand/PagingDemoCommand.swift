import ContentLoading
import ContentLoadingSupport
import ExampleSupport
import Foundation

/// The `paging-demo` command: pages through the bundled catalog (320 items, 25 a page),
/// printing each page's arrival, any failure and its retry, and the final count.
@MainActor
public enum PagingDemoCommand {
    /// The help text.
    public static let help = """
        USAGE: paging-demo [--page-size N] [--fail-page N] [--window N]
               paging-demo --database PATH [--url URL] [--pages N] [--page-size N]
                           [--max-age SECONDS] [--offline] [--edit ID --title TEXT]

        Pages through a catalog of 320 items bundled with the example, as a list screen
        would while the user scrolls, and prints each page as it arrives.

        With --database, pages through the catalog at --url instead, keeping the pages and
        their items in the SQLite file PATH: a run opens with the pages stored there (offline
        too) and pages on through them without a request, then from the stored cursor. The
        catalog answers GET URL?limit=N for the first page and GET URL?cursor=C&limit=N after
        it (C percent-encoded, "+" too), with {"items": [{"id": Int, "title": String}], "next": String?, "previous": String?}
        ("next" is the cursor of the page after, null at the end); an ETag lets a run ask for
        the first page "if changed" (and, with --max-age, a stored page fetched longer ago).

        OPTIONS:
          --page-size N   Items per page (default: 25).
          --fail-page N   Make page N fail once, to show the failed page being retried
                          while the pages before it stay loaded.
          --window N      Keep at most N pages: paging forward drops the first pages,
                          then the demo pages back to the start, loading them again
                          (and dropping the last ones), and prints which items it holds.
          --database PATH Keep the list and its items in the SQLite file PATH.
          --url URL       The catalog to page through (with --database).
          --pages N       Stop after N pages (with --database; default: all).
          --max-age SECONDS
                          Ask again for a stored page fetched more than SECONDS ago, with
                          its ETag ("not modified" keeps it; default: stored pages are
                          shown however old).
          --offline       Make no request: show what PATH holds.
          --edit ID --title TEXT
                          Save item ID with the title TEXT in PATH first: every stored
                          page holding it shows the new title.
          -h, --help      Show this help.
        """

    /// Runs the command; returns 0 when every page loaded, 1 on an error, 64 for a bad command line.
    public static func main(arguments: some Sequence<String>, console: Console = .standard) async -> Int32 {
        var pageSize = 25
        var failPage: Int?
        var window: Int?
        var persisted = PersistedCatalog.Options(database: "", pageSize: 10, offline: false)
        var (editID, editTitle): (Int?, String?) = (nil, nil)
        var maxAge: Int?
        var remaining = Array(arguments)[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help":
                console.write(help + "\n")
                return 0
            case "--offline": persisted.offline = true
            case "--max-age":
                guard let value = remaining.popFirst().flatMap(Int.init), value >= 0 else {
                    console.writeError("paging-demo: --max-age needs a number of seconds, 0 or more\n")
                    return 64
                }
                maxAge = value
            case "--database", "--url", "--title":
                guard let value = remaining.popFirst(), !value.isEmpty else {
                    console.writeError("paging-demo: \(argument) needs a value\n")
                    return 64
                }
                switch argument {
                case "--database": persisted.database = value
                case "--title": editTitle = value
                default:
                    guard let url = URL(string: value), url.scheme != nil else {
                        console.writeError("paging-demo: --url needs a URL, got '\(value.escapingControlCharacters)'\n")
                        return 64
                    }
                    persisted.url = url
                }
            case "--page-size", "--fail-page", "--window", "--pages", "--edit":
                guard let value = remaining.popFirst().flatMap(Int.init), value > 0 else {
                    console.writeError("paging-demo: \(argument) needs a positive whole number\n")
                    return 64
                }
                switch argument {
                case "--page-size": (pageSize, persisted.pageSize) = (value, value)
                case "--fail-page": failPage = value
                case "--pages": persisted.pages = value
                case "--edit": editID = value
                default: window = value
                }
            default:
                console.writeError(
                    "paging-demo: unknown argument '\(argument)'\nRun 'paging-demo --help' for the options.\n")
                return 64
            }
        }
        if editID != nil || editTitle != nil {
            guard let editID, let editTitle else {
                console.writeError("paging-demo: --edit ID and --title TEXT go together\n")
                return 64
            }
            persisted.edit = CatalogEntry(id: editID, title: editTitle)
        }
        persisted.maxAge = maxAge.map { .seconds($0) }
        if !persisted.database.isEmpty { return await PersistedCatalog.run(persisted, console: console) }
        if persisted.url != nil || persisted.offline || persisted.edit != nil || persisted.pages != nil
            || persisted.maxAge != nil
        {
            console.writeError("paging-demo: --url, --pages, --max-age, --offline and --edit need --database PATH\n")
            return 64
        }
        guard let catalog = Bundle.module.url(forResource: "catalog", withExtension: "json") else {
            console.writeError("paging-demo: catalog.json is missing from the example's resources\n")
            return 1
        }
        let pager = CatalogPager(pageSize: pageSize, failingOncePage: failPage, pageWindow: window)
        let forward = await run(pager, catalog: catalog, console: console)
        guard forward == 0, window != nil else { return forward }
        return await pageBack(pager, console: console)
    }

    /// Pages back to the start, loading again the pages the window dropped, retrying a failed
    /// page once.
    static func pageBack(_ pager: CatalogPager, console: Console) async -> Int32 {
        console.write("paging back to the start\n")
        var retried = false
        while true {
            switch pager.previousPageState {
            case .endReached:
                console.write("start reached: \(holding(pager))\n")
                return 0
            case .failed(let error) where retried:
                console.writeError("paging-demo: \(error.escapedDescription)\n")
                return 1
            case .failed(let error):
                console.write(
                    "a previous page failed: \(error.escapedDescription); retrying\n")
                retried = true
                await pager.retryPreviousPage().settled()
            case .idle, .loading:
                if await pager.loadPreviousPage().settled() != .loading, pager.previousPageState.isIdleOrEnd {
                    console.write("previous page loaded again: \(holding(pager))\n")
                }
            }
        }
    }

    /// "holding items 26–100 (75), 25 dropped before".
    static func holding(_ pager: CatalogPager) -> String {
        guard let list = pager.content, let first = list.first, let last = list.last else { return "holding nothing" }
        return "holding items \(first.id)–\(last.id) (\(list.count)), \(list.itemsBefore) dropped before"
    }

    /// Loads the first page, then every next page until the end, retrying a failed page once.
    static func run(_ pager: CatalogPager, catalog: URL, console: Console) async -> Int32 {
        let firstPage = await pager.refresh(catalog).settled()
        if let error = firstPage.error {
            console.writeError(
                "paging-demo: the first page failed: \(error.escapedDescription)\n")
            return 1
        }
        var shown = 0
        report(pager, after: &shown, console: console)
        var retried = false
        while true {
            let state: NextPageState
            switch pager.nextPageState {
            case .endReached:
                let pages = pager.content?.pagesLoaded ?? 0
                if pager.pageWindow == nil {
                    console.write("end reached: \(pager.itemCount) items in \(pages) pages\n")
                } else {
                    console.write("end reached after \(pages) pages: \(holding(pager))\n")
                }
                return 0
            case .failed(let error) where retried:
                console.writeError("paging-demo: \(error.escapedDescription)\n")
                return 1
            case .failed(let error):
                let page = (pager.content?.pagesLoaded ?? 0) + 1
                let reason = error.escapedDescription
                console.write("page \(page) failed: \(reason); keeping \(pager.itemCount) items, retrying\n")
                retried = true
                state = await pager.retryNextPage().settled()
            case .idle, .loading:
                state = await pager.loadNextPage().settled()
            }
            if state == .idle || state == .endReached { report(pager, after: &shown, console: console) }
        }
    }

    /// Prints the page that just arrived; `shown` is how many items were loaded before it.
    private static func report(_ pager: CatalogPager, after shown: inout Int, console: Console) {
        guard let list = pager.content else { return }
        if pager.pageWindow == nil {
            console.write("page \(list.pagesLoaded) arrived: \(list.count - shown) items, \(list.count) loaded\n")
        } else {
            console.write("page \(list.pagesLoaded) arrived: \(holding(pager))\n")
        }
        shown = list.count
    }
}

extension NextPageState {
    /// Whether the page load is over without a failure.
    fileprivate var isIdleOrEnd: Bool { self == .idle || self == .endReached }
}
