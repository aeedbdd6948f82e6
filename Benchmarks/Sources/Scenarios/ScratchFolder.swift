import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files the scenarios make (databases, payloads, the fixture server's folder): each in a
/// folder of its own under one folder of the process (`<temporary directory>/clk-bench-<pid>`),
/// removed when the process exits, so a benchmark run leaves nothing behind.
enum ScratchFolder {
    /// A new, empty folder named after `name`.
    static func make(_ name: String) throws -> URL {
        let folder = try root.get().appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private static let root = Result<URL, any Error> {
        let root = processFolder()
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: ScratchFolder.processFolder()) }
        return root
    }

    private static func processFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("clk-bench-\(getpid())")
    }
}
