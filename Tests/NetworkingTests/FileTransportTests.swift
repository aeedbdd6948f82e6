import ContentLoadingNetworking
import Foundation
import KitTestSupport
import Testing

@Suite struct FileTransportTests {
    let directory: URL

    init() throws {
        directory = try TestScratch.directory("file")
    }

    @Test func readsAFileURL() async throws {
        let file = directory.appendingPathComponent("items.json")
        try Data(#"[{"order": 1}]"#.utf8).write(to: file)
        let items = try await APIClient().fetch([Item].self, from: file)
        #expect(items == [Item(order: 1, phone: nil)])
    }

    @Test func missingFileNamesThePath() async throws {
        let file = directory.appendingPathComponent("missing.json")
        let error = try await apiError { try await APIClient().fetch([Item].self, from: file) }
        #expect(error == .fileNotFound(url: file, path: file.path))
        #expect(error.description == "no file at \(file.path)")
    }

    /// `file://` names no path: its error said "no file at " and named nothing.
    @Test func aFileURLWithNoPathNamesTheURL() async throws {
        let url = try #require(URL(string: "file://"))
        let error = try await apiError { try await APIClient().data(from: url) }
        #expect(error.description == "no file at file://: it names no path")
    }

    /// `file://tmp/x.json` names the host "tmp": Foundation read `/x.json`, another file than
    /// the `/tmp/x.json` meant (a slash short), or reported that one missing.
    @Test func aFileURLNamingAHostIsRefusedNamingWhatWasMeant() async throws {
        let file = directory.appendingPathComponent("items.json")
        try Data(#"[{"order": 1}]"#.utf8).write(to: file)
        // NB: the file's path a slash short: its first component is read as the host.
        let components = file.path.split(separator: "/", omittingEmptySubsequences: true)
        let host = String(components[0])
        let rest = "/" + components.dropFirst().joined(separator: "/")
        let url = try #require(URL(string: "file://\(host)\(rest)"))
        let error = try await apiError { try await APIClient().data(from: url) }
        #expect(
            error.description
                == "cannot read file://\(host)\(rest): it names the host \"\(host)\", not this machine; "
                + "a file URL's path starts after its third slash (file:///\(host)\(rest))")
        let bare = try await apiError { try await APIClient().data(from: try #require(URL(string: "file://x.json"))) }
        #expect(
            bare.description
                == "cannot read file://x.json: it names the host \"x.json\", not this machine; "
                + "a file URL's path starts after its third slash (file:///x.json)")
        for local in ["file:///\(host)\(rest)", "file://localhost/\(host)\(rest)"] {
            let items = try await APIClient().fetch([Item].self, from: try #require(URL(string: local)))
            #expect(items == [Item(order: 1, phone: nil)], "\(local)")
        }
    }

    @Test func directoryIsUnreadable() async throws {
        let error = try await apiError { try await APIClient().fetch([Item].self, from: directory) }
        guard case .fileUnreadable(_, let path, _) = error else {
            Issue.record("expected fileUnreadable, got \(error)")
            return
        }
        #expect(path == directory.path)
    }

    @Test func unsupportedSchemeIsNamed() async throws {
        let ftp = URL(string: "ftp://example.com/items.json")!
        let error = try await apiError { try await APIClient().fetch([Item].self, from: ftp) }
        #expect(error == .unsupportedScheme(url: ftp))
        #expect(error.description.contains("ftp://example.com/items.json"))
    }

    @Test func aDeviceIsNotARegularFile() async throws {
        let zero = URL(fileURLWithPath: "/dev/zero")
        let error = try await apiError { try await APIClient().data(from: zero) }
        guard case .fileUnreadable(_, "/dev/zero", let reason) = error else {
            Issue.record("expected fileUnreadable, got \(error)")
            return
        }
        #expect(reason.contains("not a regular file"))
        #expect(!reason.contains("permission"))
    }

    @Test func aFileOverTheLimitIsRefusedNamingTheLimit() async throws {
        let file = directory.appendingPathComponent("large.json")
        try Data(repeating: UInt8(ascii: " "), count: 2_048).write(to: file)
        let client = APIClient(transport: .fileSystem(maximumBodySize: 1_024))
        let error = try await apiError { try await client.data(from: file) }
        #expect(error == .bodyTooLarge(url: file, limit: 1_024))
        #expect(error.description.contains("larger than the limit of 1 KiB"))
        let exact = try await APIClient(transport: .fileSystem(maximumBodySize: 2_048)).data(from: file)
        #expect(exact.count == 2_048)
    }
}
