// The sample of the ContentLoadingNetworking landing page (ContentLoadingNetworking.md).
import ContentLoadingNetworking
import Foundation

public struct NetworkingLanding {
    // sample: Sources/Networking/ContentLoadingNetworking.docc/ContentLoadingNetworking.md#1
    struct Contact: Decodable, Sendable { let order: Int }
    struct ContactsURLs: URLStore { let contacts: URL }

    func contacts(from urls: ContactsURLs) async throws -> [Contact] {
        let client = APIClient(transport: .standard(limits: TransportLimits(deadline: .seconds(30))))
        return try await client.fetch([Contact].self, from: urls.contacts)
    }
    // end sample

    /// Runs the sample on `url`; the orders it read.
    public static func orders(at url: URL) async throws -> [Int] {
        try await NetworkingLanding().contacts(from: ContactsURLs(contacts: url)).map { $0.order }
    }
}
