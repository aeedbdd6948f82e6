import ContentLoadingNetworking
import Foundation
import SellerContacts

/// Scenario 4: a ~5 MB SellerContacts JSON through the API manager from a `file://` URL, and
/// `JSONDecoder` on the same bytes in memory.
public struct DecodingScenario: Sendable {
    /// The JSON file the API manager reads.
    public let fileURL: URL
    /// The same bytes, in memory.
    public let data: Data
    /// How many contacts the file holds.
    public let count: Int

    /// Writes the JSON file (about `megabytes` MB) to a temporary directory.
    public init(megabytes: Int = 5) throws {
        var contacts: [SellerContacts] = []
        var size = 0
        while size < megabytes * 1_000_000 {
            let contact = SellerContacts(
                address:
                    "\(contacts.count) Long Avenue, Unit \(contacts.count % 97), Springfield, ZZ 0\(contacts.count % 9999)",
                order: contacts.count, phone: "+1 555 \(1_000_000 + contacts.count)")
            contacts.append(contact)
            size += 95
        }
        data = try JSONEncoder().encode(contacts)
        count = contacts.count
        let directory = try ScratchFolder.make("decoding")
        fileURL = directory.appendingPathComponent("contacts.json")
        try data.write(to: fileURL)
    }

    /// The kit: `SellerContactsAPIManager` reading the file.
    public func kit() async throws -> Int {
        try await SellerContactsAPIManager(urlStore: FixedSellerContactsURLStore(fileURL)).sellerContacts().count
    }

    /// The baseline: `JSONDecoder` on the bytes already in memory.
    ///
    /// NB: `nonisolated async`, so it decodes on the global executor like the kit does: decoding
    /// on the main thread instead measured up to 1.7x apart from run to run (allocator arenas
    /// differ per thread), which drowned the difference being measured.
    public nonisolated func baseline() async throws -> Int {
        try JSONDecoder().decode([SellerContacts].self, from: data).count
    }
}
