import ContentLoading
import ContentLoadingNetworking
import ContentLoadingRepository
import Foundation
import SellerContacts

/// R1: revalidating an unchanged SellerContacts payload of about 5 MB over loopback HTTP, served
/// by the tests' fixture server (a python3 process on 127.0.0.1) with ETags.
public final class RevalidationScenario: Sendable {
    /// The payload's size in bytes.
    public let payloadBytes: Int
    let url: URL
    let stored: [SellerContacts]
    let client = APIClient(transport: .standard(limits: TransportLimits(maximumBodySize: 64 << 20)))
    let repository: KeyedRepository<String, [SellerContacts]>
    let server: Process
    let serverInput: Pipe

    /// Writes `count` contacts as JSON, starts the fixture server on it and caches the
    /// contacts with their ETag in a keyed repository.
    public init(count: Int) async throws {
        let directory = try ScratchFolder.make("revalidation")
        stored = SQLiteScenario.contacts(count)
        let payload = try JSONEncoder().encode(stored)
        payloadBytes = payload.count
        try payload.write(to: directory.appendingPathComponent("contacts.json"))
        let base: URL
        (server, serverInput, base) = try Self.startServer(serving: directory)
        url = base.appendingPathComponent("fixtures/contacts.json")
        let client = client
        let url = url
        repository = KeyedRepository(memory: MemoryCache(countLimit: 1)) { _, validators in
            try await client.fetch([SellerContacts].self, from: url, ifChangedSince: validators)
        }
        guard try await repository.refresh("contacts") == .updated else { fatalError("R1: the first fetch") }
    }

    /// The kit: a revalidation that the server answers with 304.
    public func kit() async throws {
        guard try await repository.refresh("contacts") == .notModified else { fatalError("R1: not a 304") }
    }

    /// Before conditional requests: download the whole payload, decode it, compare.
    public func fullDownload() async throws {
        guard try await client.fetch([SellerContacts].self, from: url) == stored else { fatalError("R1: changed") }
    }

    /// Stops the server (it exits when its standard input closes).
    public func stop() {
        try? serverInput.fileHandleForWriting.close()
        server.waitUntilExit()
    }

    /// Starts `fixture_server.py` with `root` behind `/fixtures/`; returns it, its input (close
    /// it to stop the server) and its base URL.
    static func startServer(serving root: URL) throws -> (Process, Pipe, URL) {
        // NB: the script the tests use, found from this file: Benchmarks/Sources/Scenarios/.
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../../Tests/Support/Resources/fixture_server.py"
        ).standardizedFileURL
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, "--root", root.path]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            fatalError("R1: the fixture server at \(script.path) did not start: '\(text)'")
        }
        return (process, input, URL(string: "http://127.0.0.1:\(port)/")!)
    }
}
