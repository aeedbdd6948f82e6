import Foundation
import KitTestSupport
import Testing

/// `seller-contacts` on a full disk (a 40 KiB tmpfs, mounted by the test): one clear line that
/// says the disk is full and names the file. Needs root on Linux, as CI has.
@MainActor
@Suite(.timeLimit(.minutes(HangLimit.minutes)), .enabled(if: FullDisk.canMount, "mounts a tmpfs: Linux, as root"))
struct FullDiskTests {
    @Test(arguments: ["--cache", "--database"])
    func aFullDiskSaysSoAndNamesTheFile(option: String) async throws {
        let disk = try FullDisk()
        defer { disk.unmount() }
        let path = disk.directory.appendingPathComponent("contacts.sqlite").path
        try disk.fill()
        let result = await runSellerContacts([option, path])
        expectOneClearErrorLine(result, status: 1, mentioning: [path, "the disk is full"], "\(option) on a full disk")
    }
}

/// A tmpfs of 40 KiB mounted on a directory of its own.
struct FullDisk {
    let directory: URL

    /// Whether this process can mount one (Linux, root).
    static let canMount: Bool = {
        #if os(Linux)
            guard getuid() == 0, let probe = try? FullDisk() else { return false }
            probe.unmount()
            return true
        #else
            return false
        #endif
    }()

    init() throws {
        directory = try makeTemporaryDirectory()
        try Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=40k", "tmpfs", directory.path])
    }

    /// Fills it, but for a few bytes.
    func fill() throws {
        let filler = directory.appendingPathComponent("filler")
        _ = FileManager.default.createFile(atPath: filler.path, contents: nil)
        let handle = try FileHandle(forWritingTo: filler)
        defer { try? handle.close() }
        while (try? handle.write(contentsOf: Data(count: 4_096))) != nil {}
    }

    func unmount() { try? Self.run("/bin/umount", [directory.path]) }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: arguments.last ?? tool])
        }
    }
}
