import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files a test process makes: each test's in a folder of its own, under one folder of the
/// process (`<temporary directory>/clk-tests-<pid>`), which goes when the process exits. One
/// that a process left behind (killed, or crashed) goes when the next test process makes its
/// own, so a run of the suite leaves nothing in the temporary directory.
///
/// ```swift
/// let folder = try TestScratch.directory("cache")   // …/clk-tests-4242/cache-<UUID>
/// ```
public enum TestScratch {
    /// A new, empty folder named after `name`, for one test.
    public static func directory(_ name: String) throws -> URL {
        let folder = try root.get().appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private static let prefix = "clk-tests-"

    /// This process's folder, made (and its removal at exit registered) on first use.
    private static let root = Result<URL, any Error> {
        let temporary = FileManager.default.temporaryDirectory
        removeLeftovers(in: temporary)
        let root = folder(of: getpid())
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestScratch.folder(of: getpid())) }
        return root
    }

    private static func folder(of process: pid_t) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)\(process)")
    }

    /// Removes the folders of test processes that are gone.
    private static func removeLeftovers(in temporary: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            guard let process = pid_t(name.dropFirst(prefix.count)), process != getpid() else { continue }
            // NB: kill with signal 0 only asks whether the process exists.
            if kill(process, 0) == -1 && errno == ESRCH {
                try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
            }
        }
    }
}
