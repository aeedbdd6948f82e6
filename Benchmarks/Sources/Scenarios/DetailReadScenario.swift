import ContentLoading
import ContentLoadingRepository
import Foundation

/// What a detail screen pays to open from the file: a `KeyedRepository` of elements by id over
/// an `ElementStore`, whose memory holds one element, reading elements a keyed list of 1,000
/// stored (each read a trip to the file: the row, and the lists holding it for its age).
public final class DetailReadScenario: Sendable {
    let details: KeyedRepository<Int, RecordsScenario.Item>
    let count = 1_000

    /// Stores the list "all" of 1,000 elements, confirmed once by an equal fetch.
    public init() async throws {
        let path = try ScratchFolder.make("details").appendingPathComponent("details.sqlite").path
        let store = ElementStore<RecordsScenario.Item>(disk: try DiskCache(.file(path: path)))
        let items = (0..<count).map { RecordsScenario.Item(id: $0, title: "Item \($0)") }
        let lists = KeyedRepository<String, [RecordsScenario.Item]>(elements: store) { _ in items }
        try await lists.refresh("all")
        guard try await lists.refresh("all") == .notModified else { fatalError("D1: not confirmed") }
        details = KeyedRepository(elements: store, memory: MemoryCache(countLimit: 1)) { _ in
            fatalError("D1: a detail read asked the source")
        }
    }

    /// Reads the detail of element `read % 1,000` from the file.
    public func read(_ read: Int) async throws {
        let id = (read * 7) % count
        guard try await details.value(for: id, policy: .returnCacheDontLoad)?.value.id == id else {
            fatalError("D1: no detail \(id)")
        }
    }
}
