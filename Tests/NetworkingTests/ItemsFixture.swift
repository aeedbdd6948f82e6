import Foundation
import KitTestSupport

/// A folder of its own holding `items.json` (one item, order 3, phone "555"), served by a
/// fixture server of its own under `/fixtures/`.
struct ItemsFixture {
    let root: URL
    let server: LocalHTTPServer

    /// Writes the folder and starts the server; `name` tells the folder apart in the
    /// temporary directory.
    init(_ name: String) throws {
        root = try TestScratch.directory(name)
        try Data(#"[{"order": 3, "phone": "555"}]"#.utf8).write(to: root.appendingPathComponent("items.json"))
        server = try LocalHTTPServer.start(serving: root)
    }
}
