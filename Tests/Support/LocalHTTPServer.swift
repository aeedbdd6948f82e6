import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The fixture HTTP server (`fixture_server.py`) running as a real process on 127.0.0.1.
///
/// Each test starts its own and stops it when done; the server also exits when this process
/// does, because it serves only until its standard input closes.
///
/// ```swift
/// let server = try LocalHTTPServer.start(serving: fixturesDirectory)
/// defer { server.stop() }
/// let url = server.url("fixtures/contacts.json")
/// ```
public final class LocalHTTPServer: Sendable {
    /// `http://127.0.0.1:<port>/`.
    public let baseURL: URL
    private let process: ChildProcess

    private init(baseURL: URL, process: ChildProcess) {
        self.baseURL = baseURL
        self.process = process
    }

    /// Starts the server with `root` as the directory behind `/fixtures/`.
    ///
    /// - Throws: ``StartError`` when python3 or the script is missing, or the server exits
    ///   before it listens.
    public static func start(serving root: URL? = nil) throws -> LocalHTTPServer {
        guard let script = Bundle.module.url(forResource: "fixture_server", withExtension: "py") else {
            throw StartError(reason: "fixture_server.py is missing from the test support bundle")
        }
        let directory = (root ?? FileManager.default.temporaryDirectory).path
        let process: ChildProcess
        let line: String
        do {
            process = try ChildProcess(
                URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3", script.path, "--root", directory])
            line = try process.readLine()
        } catch {
            throw StartError(reason: "python3 fixture_server.py did not start: \(error)")
        }
        guard line.hasPrefix("PORT "), let port = Int(line.dropFirst(5)) else {
            throw StartError(reason: "unexpected first line from the server: \(line)")
        }
        return LocalHTTPServer(baseURL: URL(string: "http://127.0.0.1:\(port)/")!, process: process)
    }

    /// The URL of `path` on this server, e.g. `url("status/404")`.
    public func url(_ path: String) -> URL {
        URL(string: path, relativeTo: baseURL)!.absoluteURL
    }

    /// How many requests the server has served, not counting this question.
    public func requestCount() async throws -> Int {
        let (data, _) = try await URLSession.shared.data(from: url("requests"))
        return Int(String(decoding: data, as: UTF8.self)) ?? -1
    }

    /// Waits until the server has received at least `count` requests (other than these
    /// questions), asking it after each answer: an awaited event, not a sleep.
    public func waitForRequests(_ count: Int) async throws {
        var asked = 0
        while try await requestCount() - asked < count {
            asked += 1
            try Task.checkCancellation()
        }
    }

    /// Stops the server and waits for it to exit.
    public func stop() {
        process.stop()
    }

    /// Why the server could not start.
    public struct StartError: Error, CustomStringConvertible {
        /// What went wrong.
        public let reason: String
        /// The reason.
        public var description: String { "LocalHTTPServer: \(reason)" }
    }
}
