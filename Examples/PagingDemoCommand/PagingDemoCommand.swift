import ContentLoading
import ExampleSupport
import Foundation

/// The `paging-demo` command: pages through the bundled catalog (320 items, 25 a page),
/// printing each page's arrival, any failure and its retry, and the final count.
@MainActor
public enum PagingDemoCommand {
    /// The help text.
    public static let help = """
        USAGE: paging-demo [--page-size N] [--fail-page N]

        Pages through a catalog of 320 items bundled with the example, as a list screen
        would while the user scrolls, and prints each page as it arrives.

        OPTIONS:
          --page-size N   Items per page (default: 25).
          --fail-page N   Make page N fail once, to show the failed page being retried
                          while the pages before it stay loaded.
          -h, --help      Show this help.
        """

    /// Runs the command; returns 0 when every page loaded, 1 on an error, 64 for a bad command line.
    public static func main(arguments: some Sequence<String>, console: Console = .standard) async -> Int32 {
        var pageSize = 25
        var failPage: Int?
        var remaining = Array(arguments)[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help":
                console.write(help + "\n")
                return 0
            case "--page-size", "--fail-page":
                guard let value = remaining.popFirst().flatMap(Int.init), value > 0 else {
                    console.writeError("paging-demo: \(argument) needs a positive whole number\n")
                    return 64
                }
                if argument == "--page-size" { pageSize = value } else { failPage = value }
            default:
                console.writeError(
                    "paging-demo: unknown argument '\(argument)'\nRun 'paging-demo --help' for the options.\n")
                return 64
            }
        }
        guard let catalog = Bundle.module.url(forResource: "catalog", withExtension: "json") else {
            console.writeError("paging-demo: catalog.json is missing from the example's resources\n")
            return 1
        }
        return await run(
            CatalogPager(pageSize: pageSize, failingOncePage: failPage), catalog: catalog, console: console)
    }

    /// Loads the first page, then every next page until the end, retrying a failed page once.
    static func run(_ pager: CatalogPager, catalog: URL, console: Console) async -> Int32 {
        let firstPage = await pager.refresh(catalog).settled()
        if let error = firstPage.error {
            console.writeError("paging-demo: the first page failed: \(error)\n")
            return 1
        }
        var shown = 0
        report(pager, after: &shown, console: console)
        var retried = false
        while true {
            let state: NextPageState
            switch pager.nextPageState {
            case .endReached:
                console.write("end reached: \(pager.itemCount) items in \(pager.content?.pagesLoaded ?? 0) pages\n")
                return 0
            case .failed(let error) where retried:
                console.writeError("paging-demo: \(error)\n")
                return 1
            case .failed(let error):
                let page = (pager.content?.pagesLoaded ?? 0) + 1
                console.write("page \(page) failed: \(error); keeping \(pager.itemCount) items, retrying\n")
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
        console.write("page \(list.pagesLoaded) arrived: \(list.count - shown) items, \(list.count) loaded\n")
        shown = list.count
    }
}
