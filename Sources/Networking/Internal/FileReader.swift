import Foundation

/// Reads local files for ``Transport/fileSystem(maximumBodySize:)``.
enum FileReader {
    /// Reads the regular file at `url`, of at most `maximumSize` bytes, off the caller's actor.
    static func read(_ url: URL, maximumSize: Int) async throws -> TransportResponse {
        try Task.checkCancellation()
        let path = url.path
        // NB: Foundation reads `file://tmp/x.json` as `/x.json`, its host ignored: a slash short
        // of `file:///tmp/x.json`, it read another file than the one meant, or none.
        if let host = url.host(percentEncoded: false), !host.isEmpty, host.lowercased() != "localhost" {
            throw APIError.fileUnreadable(
                url: url, path: url.redactedForDisplay, reason: remoteHostReason(host, of: url))
        }
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            guard FileManager.default.fileExists(atPath: path) else {
                throw APIError.fileNotFound(url: url, path: path)
            }
            throw APIError.fileUnreadable(url: url, path: path, reason: error.localizedDescription)
        }
        let type = attributes[.type] as? FileAttributeType
        guard type == .typeRegular else {
            let kind =
                type == .typeDirectory ? "a directory" : "not a regular file (\(type?.rawValue ?? "unknown type"))"
            throw APIError.fileUnreadable(url: url, path: path, reason: "it is \(kind)")
        }
        if let size = (attributes[.size] as? NSNumber)?.intValue, size > maximumSize {
            throw APIError.bodyTooLarge(url: url, limit: maximumSize)
        }
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw APIError.fileUnreadable(url: url, path: path, reason: error.localizedDescription)
        }
        defer { try? handle.close() }
        // NB: read at most one byte past the limit, in case the file grew since it was measured
        // (`Int.max`, an app's "no limit", has no byte past it: `+ 1` trapped).
        let readLimit = maximumSize < .max ? max(maximumSize + 1, 0) : maximumSize
        let body: Data
        do {
            body = try handle.read(upToCount: readLimit) ?? Data()
        } catch {
            throw APIError.fileUnreadable(url: url, path: path, reason: error.localizedDescription)
        }
        guard body.count <= maximumSize else { throw APIError.bodyTooLarge(url: url, limit: maximumSize) }
        return TransportResponse(url: url, body: body)
    }

    /// Why a file URL naming another machine is not read: `file://tmp/x.json` names the host
    /// "tmp" and the path `/x.json`, where `file:///tmp/x.json` (three slashes) was meant.
    private static func remoteHostReason(_ host: String, of url: URL) -> String {
        "it names the host \"\(host)\", not this machine; "
            + "a file URL's path starts after its third slash (file:///\(host)\(url.path))"
    }
}
