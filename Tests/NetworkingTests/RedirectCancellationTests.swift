import Foundation
import KitTestSupport
import Testing

/// A load cancelled while the session waits to be told what to do with a redirect ends with
/// its cancellation, and the process goes on: FoundationNetworking trapped when the answer to
/// its redirect callback came after the task was cancelled, which a caller's cancellation (or
/// the deadline) made happen at any moment of that wait.
///
/// The loads run in a child process (`redirect-cancel-stress`), because the trap ends the
/// process it happens in: in this one it would end the suite.
@Suite(.timeLimit(.minutes(1)))
struct RedirectCancellationTests {
    @Test func cancellingLoadsWhileTheyAreRedirectedNeverTraps() async throws {
        let server = try LocalHTTPServer.start()
        let stress = ChildProcess.productsDirectory.appendingPathComponent("redirect-cancel-stress")
        #expect(FileManager.default.isExecutableFile(atPath: stress.path), "the stress was built at \(stress.path)")
        let target = server.url("echo").absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        // NB: before the fix every run of 3,000 loads trapped; they take about 2 s here.
        let child = try ChildProcess(stress, arguments: [server.url("redirect?to=\(target)").absoluteString, "3000"])
        let status = await child.exitStatus(within: .seconds(45))
        #expect(status == 0, "redirect-cancel-stress crashed or did not finish: \(child.remainingErrors())")
        #expect(child.remainingOutput() == "done 3000\n")
    }
}
