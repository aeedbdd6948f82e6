import Foundation

/// Reads local files for ``Transport/fileSystem``.
enum FileReader {
    /// Reads the file at `url`, off the caller's actor.
    static func read(_ url: URL) async throws -> TransportResponse {
        try Task.checkCancellation()
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw APIError.fileNotFound(url: url, path: path)
        }
        guard !isDirectory.boolValue else {
            throw APIError.fileUnreadable(url: url, path: path, reason: "it is a directory")
        }
        do {
            return TransportResponse(url: url, body: try Data(contentsOf: url))
        } catch {
            throw APIError.fileUnreadable(url: url, path: path, reason: error.localizedDescription)
        }
    }
}
