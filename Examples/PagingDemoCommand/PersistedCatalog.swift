import ContentLoading
import ContentLoadingNetworking
import ContentLoadingRepository
import ContentLoadingSupport
import ExampleSupport
import Foundation

/// One entry of an HTTP catalog: `{"id": 1, "title": "Item 1"}`.
public struct CatalogEntry: Codable, Sendable, Hashable, Identifiable {
    /// The entry's id.
    public let id: Int
    /// Its title.
    public var title: String
}

/// What `paging-demo --database` does: pages through a catalog kept in an SQLite file, from the
/// pages stored there and from `--url`.
@MainActor
enum PersistedCatalog {
    /// One answer of the catalog endpoint.
    struct Response: Codable, Sendable {
        let items: [CatalogEntry]
        let next: String?
        let previous: String?
    }

    /// Why no request was made.
    struct Offline: Error, CustomStringConvertible {
        var description: String { "offline (--offline, or no --url): only stored pages are shown" }
    }

    /// The options of a run.
    struct Options {
        var url: URL?
        var database: String
        var pages: Int?
        var pageSize: Int
        var offline: Bool
        var edit: CatalogEntry?
        /// How old a stored page may be and still be shown without a request (`nil`: any age).
        var maxAge: Duration?
    }

    /// Saves the edit, if any, then opens the list from the file and pages on (from the file,
    /// then from the URL) until `pages` pages or the end, printing each request, each page
    /// and the items held. Returns 0, or 1 on an error (a failed request after the stored
    /// pages is reported, not an error).
    static func run(_ options: Options, console: Console) async -> Int32 {
        let store: ElementStore<CatalogEntry>
        do {
            store = ElementStore(disk: try DiskCache(.file(path: options.database)))
            if let edit = options.edit {
                try await store.save(edit)
                console.write("saved item \(edit.id): \(edit.title.escapingControlCharacters)\n")
            }
        } catch {
            console.writeError("paging-demo: \(error.escapedDescription)\n")
            return 1
        }
        let model = PagingListViewModel(
            source: .persisted(
                in: store, key: "catalog", revalidatingPagesOlderThan: options.maxAge,
                pagesIfChanged: fetch(options, console: console)))
        let opened = await model.refresh().completed()
        if let error = opened.error {
            guard opened.content != nil else {
                console.writeError(
                    "paging-demo: the first page failed: \(error.escapedDescription)\n")
                return 1
            }
            console.write("showing the stored pages: \(error.escapedDescription)\n")
        }
        report(model, console: console)
        while model.nextPageState == .idle, model.items.pagesLoaded < options.pages ?? .max {
            if case .failed(let error) = await model.loadNextPage().settled() {
                // NB: offline, the stored pages are all there is; a request that failed is not
                // the end of the list.
                console.write(
                    error is Offline
                        ? "no more pages: \(error)\n"
                        : "the next page failed: \(error.escapedDescription)\n")
                break
            }
            report(model, console: console)
        }
        if model.nextPageState == .endReached { console.write("end reached\n") }
        for item in model.items { console.write("  \(item.id) \(item.title.escapingControlCharacters)\n") }
        return 0
    }

    /// Fetches the page at a cursor from `options.url` (`?limit=N`, then `?cursor=C&limit=N`),
    /// asking "if changed" with the stored page's validators, and prints each request.
    private static func fetch(_ options: Options, console: Console)
        -> @Sendable (String?, Validators) async throws -> FetchResult<Page<CatalogEntry, String>>
    {
        let client = APIClient()
        let (url, offline, limit) = (options.url, options.offline, options.pageSize)
        return { cursor, validators in
            guard let url, !offline else { throw Offline() }
            guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
                throw APIError.unsupportedScheme(url: url)
            }
            // NB: percent-encoded here: `queryItems` leaves a "+" as it is, which a server reads as
            // a space, and base64 cursors hold "+".
            let query =
                (cursor.map { [URLQueryItem(name: "cursor", value: $0.percentEncodedForQuery)] } ?? [])
                + [URLQueryItem(name: "limit", value: String(limit))]
            components.percentEncodedQueryItems = (components.percentEncodedQueryItems ?? []) + query
            guard let pageURL = components.url else { throw APIError.unsupportedScheme(url: url) }
            let result = try await client.fetch(Response.self, from: pageURL, ifChangedSince: validators)
            console.write(
                "GET \(pageURL.redactedForDisplay.escapingControlCharacters): \(result.value == nil ? "not modified" : "fetched")\n"
            )
            return switch result {
            case .modified(let response, let validators):
                .modified(
                    Page(items: response.items, previousCursor: response.previous, nextCursor: response.next),
                    validators)
            case .notModified(let validators): .notModified(validators)
            }
        }
    }

    /// "page 2: holding items 1–20".
    private static func report(_ model: PagingListViewModel<Void, CatalogEntry, String>, console: Console) {
        let list = model.items
        guard let first = list.first, let last = list.last else { return console.write("no items\n") }
        console.write("page \(list.pagesLoaded): holding items \(first.id)–\(last.id)\n")
    }
}

extension String {
    /// The text with every character but the unreserved ones of RFC 3986 (ASCII letters, digits,
    /// `-`, `.`, `_`, `~`) percent-encoded: safe as a query value, whatever a server makes of
    /// `+`, `&` or `=`.
    fileprivate var percentEncodedForQuery: String {
        let unreserved = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZ" + "abcdefghijklmnopqrstuvwxyz" + "0123456789-._~")
        return addingPercentEncoding(withAllowedCharacters: unreserved) ?? self
    }
}
