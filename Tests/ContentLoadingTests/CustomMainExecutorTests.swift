import Foundation
import KitTestSupport
import Testing

/// A refresh awaited on the main actor never hangs, whatever executor runs the main actor.
///
/// The program runs in a child process (`custom-main-executor`) with a time limit, since its
/// main actor runs on an executor of its own that never drains the main dispatch queue, where a
/// parked waiter would wait for ever.
@Suite(.timeLimit(.minutes(HangLimit.minutes)))
struct CustomMainExecutorTests {
    @Test func refreshesAwaitedOnACustomMainExecutorSettle() async throws {
        let program = ChildProcess.productsDirectory.appendingPathComponent("custom-main-executor")
        #expect(FileManager.default.isExecutableFile(atPath: program.path), "built at \(program.path)")
        let child = try ChildProcess(program, arguments: ["200"])
        let status = await child.exitStatus(within: .seconds(30))
        let output = child.remainingOutput()
        try #require(output != "unsupported\n", "this toolchain cannot give the main actor an executor")
        #expect(status == 0, "the awaited refreshes did not all settle within 30 s (a hang), or one failed")
        #expect(output == "parking off\ndone 200\n")
    }
}
