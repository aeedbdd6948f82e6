import Foundation
import KitTestSupport
import Testing

/// The example commands when their output cannot be written: an error and exit 74, no crash.
@Suite(.timeLimit(.minutes(1)))
struct CommandOutputTests {
    @Test(arguments: ["seller-contacts", "paging-demo"])
    func aFullStandardOutputIsAnErrorExitNotACrash(command: String) async throws {
        let binary = ChildProcess.productsDirectory.appendingPathComponent(command).path
        #expect(FileManager.default.isExecutableFile(atPath: binary), "\(command) was built at \(binary)")
        let child = try ChildProcess(
            URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", #"exec "$0" > /dev/full"#, binary])
        let status = await child.exitStatus(within: .seconds(30))
        #expect(status == 74, "\(command): \(child.remainingErrors())")
        #expect(child.remainingErrors() == "\(command): cannot write to standard output: No space left on device\n")
    }
}
