import ContentLoading
import ContentLoadingNetworking
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// N1: sequential PUTs of one small JSON record over loopback HTTP to the tests' fixture server
/// (its record store, with ETags), through `APIClient.send(_:)` and through raw `URLSession`
/// data tasks sending the same request (method, headers, encoded body).
public final class WriteScenario: Sendable {
    struct Record: Codable, Sendable {
        let id: Int
        let phone: String
        let order: Int
    }

    let url: URL
    let client = APIClient(transport: .urlSession())
    let session = URLSession(configuration: .ephemeral)
    let server: Process
    let serverInput: Pipe

    /// Starts the fixture server.
    public init() throws {
        let directory = try ScratchFolder.make("write")
        let base: URL
        (server, serverInput, base) = try RevalidationScenario.startServer(serving: directory)
        url = base.appendingPathComponent("records/contacts/7")
    }

    /// The kit: `count` PUTs through `APIClient`, each encoded by the client and checked.
    public func kit(count: Int) async throws {
        for order in 0..<count {
            let response = try await client.send(.put(url, body: Record(id: 7, phone: "+1 555 0100", order: order)))
            guard response.statusCode == 200 || response.statusCode == 201 else { fatalError("N1: kit status") }
        }
    }

    /// Raw `URLSession`: the same requests, encoded with a `JSONEncoder`, sent as data tasks.
    public func raw(count: Int) async throws {
        for order in 0..<count {
            var request = URLRequest(url: url)
            request.httpMethod = "PUT"
            request.httpBody = try JSONEncoder().encode(Record(id: 7, phone: "+1 555 0100", order: order))
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            request.cachePolicy = .reloadIgnoringLocalCacheData
            let status: Int = try await withCheckedThrowingContinuation { continuation in
                session.dataTask(with: request) { _, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else {
                        continuation.resume(returning: (response as? HTTPURLResponse)?.statusCode ?? 0)
                    }
                }.resume()
            }
            guard status == 200 || status == 201 else { fatalError("N1: raw status \(status)") }
        }
    }

    /// Stops the server (it exits when its standard input closes).
    public func stop() {
        try? serverInput.fileHandleForWriting.close()
        server.waitUntilExit()
    }
}
